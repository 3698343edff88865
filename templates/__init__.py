"""Jinja2 templates of the HTML reports (shipped inside the package as jojotte_records.templates)."""

-- title: Baloot contracts, doubling, projects and kaboot
-- description: Baloot only. How often each team and each player declared Hokum, Sun and Ashkal (a Sun bought by an Ashkal call, counted apart) and how often the declarers made it (did not fail, BAL-SCORE-3), with their Al-kaboot sweeps; the outcome of each doubling level (undoubled, double, triple, four, gahwa) for the declarers; the projects shown per team and kind; and how the hands ended (a contract, or all passed and redealt). Hands that could be scored from their events; with --player, the hands the player declared (and, for projects, his own).
-- table: teams
WITH h AS (
    SELECT f.session_id, f.hand_seq,
           max(f.value) FILTER (WHERE f.key = 'contract') AS contract,
           max(f.value) FILTER (WHERE f.key = 'ashkal') AS ashkal,
           max(f.value) FILTER (WHERE f.key = 'declarer') AS declarer,
           max(f.value) FILTER (WHERE f.key = 'made') AS made,
           max(f.value) FILTER (WHERE f.key = 'kaboot') AS kaboot
    FROM hand_facts f
    JOIN picked_sessions USING (session_id)
    JOIN sessions s USING (session_id)
    WHERE s.game = 'baloot'
    GROUP BY ALL
)
SELECT ss.label AS team, CASE WHEN h.ashkal = 'true' THEN 'ashkal' ELSE h.contract END AS contract,
       count(*) AS hands,
       count(*) FILTER (WHERE h.made = 'true') AS made,
       round(100.0 * count(*) FILTER (WHERE h.made = 'true') / count(*), 1) AS made_pct,
       count(*) FILTER (WHERE h.kaboot = 'true') AS kaboot
FROM h
JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = try_cast(h.declarer AS INTEGER)
JOIN session_sheet ss ON ss.session_id = h.session_id AND ss.seat = ps.sheet_seat
WHERE h.contract IS NOT NULL AND h.made IS NOT NULL
GROUP BY ALL
ORDER BY team, contract;
-- table: players
WITH h AS (
    SELECT f.session_id, f.hand_seq,
           max(f.value) FILTER (WHERE f.key = 'contract') AS contract,
           max(f.value) FILTER (WHERE f.key = 'ashkal') AS ashkal,
           max(f.value) FILTER (WHERE f.key = 'declarer') AS declarer,
           max(f.value) FILTER (WHERE f.key = 'made') AS made
    FROM hand_facts f
    JOIN picked_sessions USING (session_id)
    JOIN sessions s USING (session_id)
    WHERE s.game = 'baloot'
    GROUP BY ALL
)
SELECT ps.name AS player,
       count(*) FILTER (WHERE h.contract = 'hokum' AND h.ashkal IS DISTINCT FROM 'true') AS hokum,
       count(*) FILTER (WHERE h.contract = 'sun' AND h.ashkal IS DISTINCT FROM 'true') AS sun,
       count(*) FILTER (WHERE h.contract = 'ashkal' OR h.ashkal = 'true') AS ashkal,
       count(*) AS declared,
       count(*) FILTER (WHERE h.made = 'true') AS made,
       round(100.0 * count(*) FILTER (WHERE h.made = 'true') / count(*), 1) AS made_pct
FROM h
JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = try_cast(h.declarer AS INTEGER)
WHERE h.contract IS NOT NULL AND h.made IS NOT NULL
GROUP BY ps.name
ORDER BY declared DESC, player;
-- table: doubling
WITH h AS (
    SELECT f.session_id, f.hand_seq,
           max(f.value) FILTER (WHERE f.key = 'level') AS lvl,
           max(f.value) FILTER (WHERE f.key = 'declarer') AS declarer,
           max(f.value) FILTER (WHERE f.key = 'made') AS made
    FROM hand_facts f
    JOIN picked_sessions USING (session_id)
    JOIN sessions s USING (session_id)
    WHERE s.game = 'baloot'
    GROUP BY ALL
)
SELECT * FROM (
SELECT CASE h.lvl WHEN '1' THEN 'undoubled' WHEN '2' THEN 'double' WHEN '3' THEN 'triple' WHEN '4' THEN 'four'
                    ELSE h.lvl END AS ladder,
       count(*) AS hands,
       count(*) FILTER (WHERE h.made = 'true') AS declarers_made,
       count(*) FILTER (WHERE h.made = 'false') AS declarers_failed
FROM h
JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = try_cast(h.declarer AS INTEGER)
WHERE h.lvl IS NOT NULL AND h.made IS NOT NULL
GROUP BY 1
)
ORDER BY CASE ladder WHEN 'undoubled' THEN 1 WHEN 'double' THEN 2 WHEN 'triple' THEN 3 WHEN 'four' THEN 4 ELSE 5 END;
-- table: projects
WITH shown AS (
    SELECT f.session_id, unnest(string_split(f.value, '; ')) AS project
    FROM hand_facts f
    JOIN picked_sessions USING (session_id)
    JOIN sessions s USING (session_id)
    WHERE s.game = 'baloot' AND f.key = 'projects' AND f.value IS NOT NULL
)
SELECT ss.label AS team, split_part(shown.project, ' ', 2) AS kind, count(*) AS shown
FROM shown
JOIN players p ON p.session_id = shown.session_id AND p.label = split_part(shown.project, ' ', 1)
JOIN picked_seats ps ON ps.session_id = p.session_id AND ps.seat = p.seat
JOIN session_sheet ss ON ss.session_id = p.session_id AND ss.seat = p.sheet_seat
GROUP BY ALL
ORDER BY team, shown DESC;
-- table: outcomes
WITH h AS (
    SELECT f.session_id, f.hand_seq,
           max(f.value) FILTER (WHERE f.key = 'contract') AS contract,
           max(f.value) FILTER (WHERE f.key = 'ashkal') AS ashkal
    FROM hand_facts f
    JOIN picked_sessions USING (session_id)
    JOIN sessions s USING (session_id)
    WHERE s.game = 'baloot'
    GROUP BY ALL
)
SELECT coalesce(CASE WHEN ashkal = 'true' THEN 'ashkal' ELSE contract END, 'redeal (all passed)') AS outcome,
       count(*) AS hands, round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS pct
FROM h
GROUP BY ALL
ORDER BY hands DESC;

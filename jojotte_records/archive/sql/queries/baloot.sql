-- title: Baloot contracts, doubling, projects and kaboot
-- description: Baloot only. How often each team and each player declared Hokum, Sun and Ashkal (a Sun bought by an Ashkal call, counted apart) and how often the declarers made it (did not fail, BAL-SCORE-3), with the hands that ended in an Al-kaboot; the outcome of each doubling level (undoubled, double, triple, four, gahwa) for the declarers; the projects shown per team and kind; and how the hands ended (a contract, or all passed and redealt). Hands that could be scored from their events; with --player, the hands the player declared (and, for projects, his own).
-- table: teams
SELECT ss.label AS team, h.contract,
       count(*) AS hands,
       count(*) FILTER (WHERE h.made) AS made,
       round(100.0 * count(*) FILTER (WHERE h.made) / count(*), 1) AS made_pct,
       count(*) FILTER (WHERE h.kaboot) AS kaboot
FROM v_hand_facts h
JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = h.declarer
JOIN session_sheet ss ON ss.session_id = h.session_id AND ss.seat = ps.sheet_seat
WHERE h.game = 'baloot' AND h.contract IS NOT NULL AND h.made IS NOT NULL
GROUP BY ALL
ORDER BY team, h.contract;
-- table: players
SELECT ps.name AS player,
       count(*) FILTER (WHERE h.contract = 'hokum') AS hokum,
       count(*) FILTER (WHERE h.contract = 'sun') AS sun,
       count(*) FILTER (WHERE h.contract = 'ashkal') AS ashkal,
       count(*) AS declared,
       count(*) FILTER (WHERE h.made) AS made,
       round(100.0 * count(*) FILTER (WHERE h.made) / count(*), 1) AS made_pct
FROM v_hand_facts h
JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = h.declarer
WHERE h.game = 'baloot' AND h.contract IS NOT NULL AND h.made IS NOT NULL
GROUP BY ps.name
ORDER BY declared DESC, player;
-- table: doubling
SELECT * FROM (
    SELECT CASE h.doubling WHEN '1' THEN 'undoubled' WHEN '2' THEN 'double' WHEN '3' THEN 'triple' WHEN '4' THEN 'four'
                           ELSE h.doubling END AS ladder,
           count(*) AS hands,
           count(*) FILTER (WHERE h.made) AS declarers_made,
           count(*) FILTER (WHERE NOT h.made) AS declarers_failed
    FROM v_hand_facts h
    JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = h.declarer
    WHERE h.game = 'baloot' AND h.doubling IS NOT NULL AND h.made IS NOT NULL
    GROUP BY 1
)
ORDER BY CASE ladder WHEN 'undoubled' THEN 1 WHEN 'double' THEN 2 WHEN 'triple' THEN 3 WHEN 'four' THEN 4 ELSE 5 END;
-- table: projects
WITH shown AS (
    SELECT h.session_id, unnest(string_split(h.projects, '; ')) AS project
    FROM v_hand_facts h
    JOIN picked_sessions USING (session_id)
    WHERE h.game = 'baloot' AND h.projects IS NOT NULL
)
SELECT ss.label AS team, split_part(shown.project, ' ', 2) AS kind, count(*) AS shown
FROM shown
JOIN players p ON p.session_id = shown.session_id AND p.label = split_part(shown.project, ' ', 1)
JOIN picked_seats ps ON ps.session_id = p.session_id AND ps.seat = p.seat
JOIN session_sheet ss ON ss.session_id = p.session_id AND ss.seat = p.sheet_seat
GROUP BY ALL
ORDER BY team, shown DESC;
-- table: outcomes
SELECT coalesce(h.contract, 'redeal (all passed)') AS outcome,
       count(*) AS hands, round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS pct
FROM v_hand_facts h
JOIN picked_sessions USING (session_id)
WHERE h.game = 'baloot'
GROUP BY ALL
ORDER BY hands DESC;

"""All Is Bomb, room 5 of 5, studies: batch runs on the shared study runner, tables, charts.

- `study`             sweeps of many deals per configuration (win rates with intervals).
- `sweep_caption`     a sweep's provenance caption, from its manifest alone.
- `campaign`          Campaign Mode: removals between games and scoring.
- `campaign_players`  Campaign Mode played by the heuristic players.
- `sensitivity`       the effect of one card edit on the win rate.
- `edits`             the card edits a sensitivity study tries.
- `targets`           the rulebook's difficulty statements measured on a card set.
- `report`            summaries, Markdown tables and the report page of a study.
- `charts`            the matplotlib charts of the reports.

Imports: every room before it (cards, rules, kernel, search) and bombsolve.solvers.common.
"""

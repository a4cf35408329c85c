"""Game-independent parts: errors, statistics, seeding, atomic files, the study runner, plots."""

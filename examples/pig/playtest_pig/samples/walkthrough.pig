# Pig score sheet (examples/pig/README.md)
game: pig
rules_version: traditional-1
session_type: developer_walkthrough
game_id: pig-walkthrough-1
target: 50
seats: 1=Ada, 2=Brook
provenance.source_format: pig-sheet
provenance.illustrative: true
provenance.description: illustrative game showing the score sheet; rolls and decisions drawn by the simulator's bots (hold20 vs pace, seed walkthrough), not played at a table
1: 4 3 2 2 1
2: 6 5 4 5 4 hold =24
1: 5 1
2: 6 1
1: 4 3 4 4 4 6 hold =25
2: 1
1: 5 2 2 6 5 hold =45
2: 4 4 1
1: 1
2: 4 3 6 1
1: 3 6 hold =54
final: 1=54 2=24 winners=1

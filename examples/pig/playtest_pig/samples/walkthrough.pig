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
1: 4(4) 3(7) 2(9) 2(11) 1(0)
2: 6(6) 5(11) 4(15) 5(20) 4(24) hold =24
1: 5(5) 1(0)
2: 6(6) 1(0)
1: 4(4) 3(7) 4(11) 4(15) 4(19) 6(25) hold =25
2: 1(0)
1: 5(5) 2(7) 2(9) 6(15) 5(20) hold =45
2: 4(4) 4(8) 1(0)
1: 1(0)
2: 4(4) 3(7) 6(13) 1(0)
1: 3(3) 6(9) hold =54
final: 1=54 2=24 winners=1

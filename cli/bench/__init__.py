"""The benchmarks, in one folder at the top of the layers (they drive every layer below):

* :mod:`cli.bench.run`: ``playtest bench``, replay-validate throughput (and ``--pages``);
* :mod:`cli.bench.sim`: simulated games' speed and the digest that proves no game changed
  (``python -m cli.bench.sim digest``);
* :mod:`cli.bench.python_chess`: python-chess on random legal games, the reference row;
* :mod:`cli.bench.warehouse`: ingest and rebuild time and memory on synthetic logs;
* :mod:`cli.bench.pages`: server render time of every dashboard page.
"""

"""The ``playtest`` command line: the top layer, above ``ingest`` (reading, storage) and
``dashboards`` (screens). Nothing below imports it."""

"""Operations: Prometheus metrics, event-loop lag and the health line (``metrics``), and the
garbage collector's settings for a long-running process (``gc_tuning``).
May import: ``bot.glue`` only; everything else reports to it.
"""

"""The application: the bot object that wires every layer together (``client``), its settings
(``config``), and the browser playground that runs it inside SimCord (``playground``,
``livepage``, ``livepictures``, ``quickanswers``).
The top layer: it may import anything below it; nothing below imports it.
"""

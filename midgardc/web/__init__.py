"""``midgardc serve``: a local web app where people play a spec against bots (or each other).

``session`` holds the one game (the referee: bots and rolls move on the server), ``views``
builds what a seat's page receives (its observation and drawing only), ``app`` is the
Flask application; ``static/`` and ``templates/`` hold the page's script, style and HTML.
"""

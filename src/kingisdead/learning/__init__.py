"""Learning a position evaluation for the search (issue 12; docs/learning.md).

- ``features``: the core's feature vector of a position, read again in Python;
- ``selfplay``: games played by the core's search, written as ``.npz`` shards;
- ``network``: the network's weight file and its NumPy reference evaluation;
- ``train``: training the network with JAX (``python -m kingisdead.learning.train``).

Only ``network`` needs nothing beyond NumPy; training needs the ``learn`` extra.
"""

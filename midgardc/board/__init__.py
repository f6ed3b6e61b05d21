"""Board topologies: cells, adjacency, directions and drawing coordinates."""

"""The .keras archive and .weights.h5 formats of mb, safe by default."""

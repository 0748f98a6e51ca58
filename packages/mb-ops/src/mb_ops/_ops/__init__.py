"""The op implementations: one Operation subclass plus a thin function per op."""

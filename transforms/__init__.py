"""The cleaning steps, one module each: pure functions at the core, a thin Beam wrapper around them."""

"""Output safety: what may be replaced and the swap into place (folder), the manifest, the pages' files."""

"""What every HTML page of capclean shares: style, template, escaping, figures (html), SVG charts (charts)."""

"""What every HTML page of capclean is made of, the cleaning report's and the evaluation pages': the template,
style, escaping and shared helpers (html.py), matplotlib plots embedded as PNGs (plots.py), and bar charts in
inline SVG (charts.py)."""

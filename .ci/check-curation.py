"""Fails when the DocC catalog of a module leaves public symbols to docc's automatic
curation where it promises to group them by hand: on the module's landing page (every
top-level symbol) and on every page the catalog extends with a Topics section (every
member of Future, Promise, Signal, ...). Conformance pages ("Default Implementations")
are docc's own and are not checked.

usage: check-curation.py <docc output directory> <module> <catalog directory>
"""
import json
import pathlib
import re
import sys

output, module, catalog = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
pages = output / "data" / "documentation"


def page_for(symbol_path):
    """The render JSON of `Module/Type/Member` (docc lowercases paths)."""
    return pages.joinpath(*symbol_path.lower().split("/")).with_suffix(".json")


# The landing page and every symbol the catalog extends (`# ``Module/Type`` `).
checked = {module: page_for(module)}
for extension in catalog.rglob("*.md"):
    heading = extension.read_text().splitlines()[0]
    match = re.fullmatch(r"# ``([^`]+)``", heading.strip())
    if match and match.group(1) != module:
        symbol = match.group(1)
        if not symbol.startswith(module + "/"):
            symbol = module + "/" + symbol
        checked[symbol] = page_for(symbol)

problems = []
for symbol, page in sorted(checked.items()):
    if not page.exists():
        problems.append(f"{symbol}: no page at {page}")
        continue
    render = json.loads(page.read_text())
    for section in render.get("topicSections", []):
        if section.get("generated") and section.get("title") != "Default Implementations":
            names = [identifier.rsplit("/", 1)[-1] for identifier in section["identifiers"]]
            problems.append(f"{symbol}: not grouped in its Topics ({section['title']}): {', '.join(names)}")

for problem in problems:
    print("curation:", problem)
print(f"curation: {module}: checked {len(checked)} pages, {len(problems)} problems")
sys.exit(1 if problems else 0)

#!/usr/bin/env python3
"""Every relative link of the project's Markdown documents names a file or folder that exists.

Usage: tests/check_doc_links.py <source tree>

Reads README.md, CHANGELOG.md and every .md file under docs/; a link is Markdown's [text](target),
its target taken relative to the document's folder, without its #fragment. Links with a scheme
(https:, mailto:) and bare #fragments are left alone. A figure file a document links to but the
commit left out (docs/PERFORMANCE.md, 2026-12-05) fails here, not in a reader's browser.
"""
import pathlib
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def documents(root):
    for name in ("README.md", "CHANGELOG.md"):
        if (root / name).is_file():
            yield root / name
    yield from sorted((root / "docs").rglob("*.md"))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    root = pathlib.Path(sys.argv[1]).resolve()
    missing, links = [], 0
    for doc in documents(root):
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for target in LINK.findall(line):
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                    continue
                links += 1
                path = target.split("#", 1)[0]
                if not (doc.parent / path).exists():
                    missing.append(f"{doc.relative_to(root)}:{number}: {target}")
    for entry in missing:
        print(f"check_doc_links: no such file: {entry}")
    print(f"check_doc_links: {links} relative links, {len(missing)} to nothing")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()

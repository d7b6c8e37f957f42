#!/usr/bin/python3
"""Checks an HTML page of a report folder (report.html, compare.html; html_check.cmake).

usage: check_html.py PAGE.html MIN_IMAGES

The page must start with <!DOCTYPE html>, have <meta charset="utf-8">, a non-empty <title> and
an inline <style>; every element opened is closed, in order, except the void elements; no
<script>, no event-handler attribute, nothing loaded from elsewhere (every src and href
relative, no "//"); at least MIN_IMAGES <img>, each with an alt and a src naming a file that
exists in the page's folder.  Exit 0 when all hold, 1 otherwise (each problem on stderr)."""
import os
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Check(HTMLParser):
    def __init__(self, folder):
        super().__init__(convert_charrefs=True)
        self.folder, self.stack, self.errors, self.images = folder, [], [], 0
        self.charset = self.style = False
        self.title = None

    def error_at(self, what):
        self.errors.append("line %d, column %d: %s" % (self.getpos()[0], self.getpos()[1], what))

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" or tag == "iframe" or tag == "object":
            self.error_at("<%s>" % tag)
        for name, value in attrs:
            if name.startswith("on"):
                self.error_at("event handler %s on <%s>" % (name, tag))
            if name in ("src", "href") and (value is None or ":" in value.split("/")[0]
                                             or value.startswith("//")):
                self.error_at("%s=%r on <%s> is not a relative path" % (name, value, tag))
        if tag == "meta" and (a.get("charset") or "").lower() == "utf-8":
            self.charset = True
        if tag == "style":
            self.style = True
        if tag == "title":
            self.title = ""
        if tag == "img":
            self.images += 1
            if not a.get("alt"):
                self.error_at("<img> without alt")
            src = a.get("src") or ""
            if not src or not os.path.isfile(os.path.join(self.folder, src)):
                self.error_at("<img src=%r>: no such file in %s" % (src, self.folder))
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            self.error_at("</%s> of a void element" % tag)
        elif not self.stack:
            self.error_at("</%s> closes nothing" % tag)
        elif self.stack[-1][0] != tag:
            open_tag, pos = self.stack[-1]
            self.error_at("</%s> closes <%s> of line %d" % (tag, open_tag, pos[0]))
        else:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1][0] == "title":
            self.title += data


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, min_images = sys.argv[1], int(sys.argv[2])
    text = open(path, encoding="utf-8").read()
    c = Check(os.path.dirname(os.path.abspath(path)))
    c.feed(text)
    c.close()
    if not text.startswith("<!DOCTYPE html>\n"):
        c.errors.append("does not start with <!DOCTYPE html>")
    if not c.charset:
        c.errors.append('no <meta charset="utf-8">')
    if not (c.title or "").strip():
        c.errors.append("no title")
    if not c.style:
        c.errors.append("no <style>")
    for tag, pos in c.stack:
        c.errors.append("<%s> of line %d never closed" % (tag, pos[0]))
    if c.images < min_images:
        c.errors.append("%d <img>, want at least %d" % (c.images, min_images))
    for e in c.errors:
        print("%s: %s" % (path, e), file=sys.stderr)
    sys.exit(1 if c.errors else 0)


if __name__ == "__main__":
    main()

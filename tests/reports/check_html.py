#!/usr/bin/python3
"""Checks an HTML page of a report folder (report.html, compare.html; html_check.cmake).

usage: check_html.py PAGE.html MIN_IMAGES [PAGE.md]

The page must start with <!DOCTYPE html>, have <meta charset="utf-8">, a non-empty <title> and
an inline <style>; every element opened is closed, in order, except the void elements; no
<script>, no event-handler attribute; its ids unique.  It must refer to no other file: every
<img> src a data:image/svg+xml;base64 URI of an SVG document whose own ids are unique, every
href an http, https or mailto URL (none relative, none "//"); at least MIN_IMAGES <img>, each
with an alt.  With PAGE.md (the Markdown the page was made from, in the same folder): the
page's i-th image holds exactly the bytes of the i-th plot that PAGE.md links, so each plot
is embedded as it is, and plots of different bytes got different URIs.  Exit 0 when all
hold, 1 otherwise (each problem on stderr)."""
import base64
import binascii
import os
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

DATA = "data:image/svg+xml;base64,"

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Check(HTMLParser):
    def __init__(self, folder):
        super().__init__(convert_charrefs=True)
        self.folder, self.stack, self.errors, self.images = folder, [], [], []
        self.ids = {}
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
            if name == "href" and not re.match(r"(https?|mailto):", value or ""):
                self.error_at("href=%r on <%s> refers to another file" % (value, tag))
            if name == "src" and not (tag == "img" and (value or "").startswith(DATA)):
                self.error_at("src=%r on <%s> is not an embedded SVG" % ((value or "")[:80], tag))
            if name == "id":
                if value in self.ids:
                    self.error_at("id %r also on line %d" % (value, self.ids[value]))
                self.ids.setdefault(value, self.getpos()[0])
        if tag == "meta" and (a.get("charset") or "").lower() == "utf-8":
            self.charset = True
        if tag == "style":
            self.style = True
        if tag == "title":
            self.title = ""
        if tag == "img":
            if not a.get("alt"):
                self.error_at("<img> without alt")
            src = a.get("src") or ""
            self.images.append(self.svg(src[len(DATA):]) if src.startswith(DATA) else None)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def svg(self, b64):
        """The bytes of an embedded SVG, after checking that they are one (None if not)."""
        try:
            data = base64.b64decode(b64, validate=True)
            root = ET.fromstring(data)
        except (binascii.Error, ET.ParseError) as e:
            self.error_at("an <img> that is not a base64 SVG: %s" % e)
            return None
        if root.tag != "{http://www.w3.org/2000/svg}svg":
            self.error_at("an embedded image whose root is <%s>" % root.tag)
        ids = [e.get("id") for e in root.iter() if e.get("id") is not None]
        if len(ids) != len(set(ids)):
            self.error_at("an embedded SVG with an id twice: %s" % sorted(ids))
        return data

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


def against_markdown(c, md_path):
    """The page's images against the plots its Markdown links."""
    folder = os.path.dirname(os.path.abspath(md_path))
    links = re.findall(r"!\[[^\]]*\]\((plots/[^)]+)\)", open(md_path, encoding="utf-8").read())
    if len(links) != len(c.images):
        c.errors.append("%d images, %s links %d plots" % (len(c.images), md_path, len(links)))
        return
    files = {}
    for i, (link, data) in enumerate(zip(links, c.images)):
        with open(os.path.join(folder, link), "rb") as f:
            files[link] = f.read()
        if data != files[link]:
            c.errors.append("image %d is not the bytes of %s" % (i + 1, link))
    if len(set(c.images)) != len(set(files.values())):
        c.errors.append("%d different images for %d different plots"
                        % (len(set(c.images)), len(set(files.values()))))


def main():
    if len(sys.argv) not in (3, 4):
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
    if len(c.images) < min_images:
        c.errors.append("%d <img>, want at least %d" % (len(c.images), min_images))
    if len(sys.argv) == 4:
        against_markdown(c, sys.argv[3])
    for e in c.errors:
        print("%s: %s" % (path, e), file=sys.stderr)
    sys.exit(1 if c.errors else 0)


if __name__ == "__main__":
    main()

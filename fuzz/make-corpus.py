#!/usr/bin/env python3
# Writes the seed corpora of the fuzz targets: fuzz/corpus/pdf/, fuzz/corpus/project/ and
# fuzz/corpus/session/.
#
#   python3 fuzz/make-corpus.py
#
# Seeds only need to reach the interesting code quickly; the fuzzer does the rest. So:
# a few small fixtures copied from tests/fixtures, a few hand-written PDFs that each use
# some PDF feature the fixtures lack, and for projects one valid project of the fixture
# the project target loads plus damaged variants of it, and for the session short
# transcripts of what a script sends, good and bad. Everything is deterministic.
# Files named regress-* reproduce bugs fuzzing found, so that the replay keeps them
# fixed: those that are small enough to write by hand are written here, others are kept
# as libFuzzer minimised them and this script never touches them. Rerun it when tests/fixtures/legacy-cyrillic.pdf changes, since a
# project is tied to the checksum of its document.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import hashlib
import json
import os
import shutil
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures")
PDF_DIR = os.path.join(HERE, "corpus", "pdf")
PROJECT_DIR = os.path.join(HERE, "corpus", "project")
SESSION_DIR = os.path.join(HERE, "corpus", "session")
SESSION_OPEN_DIR = os.path.join(HERE, "corpus", "session-open")
# fuzz-session-open: a project file, then this line, then its journal.
JOURNAL_MARK = b"\n--journal--\n"

# The smallest fixtures that still cover a font kind or an error path each.
COPIED_FIXTURES = [
    "empty-page.pdf",     # no text at all
    "no-text.pdf",        # vector drawing only
    "truncated.pdf",      # cut short: reconstruction
    "identity-h.pdf",     # CID font, 2-byte codes, no map
    "type3.pdf",          # Type 3 glyph procedures
    "uralic-legacy.pdf",  # embedded legacy TrueType
    "clean-pango.pdf",    # a real producer (cairo)
]


def pdf(objects, root=1, broken_offsets=False, header=b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"):
    """A PDF with a classic xref table; objects are bytes, numbered from 1."""
    out = bytearray(header)
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        # Shifted offsets make poppler rebuild the table from the objects it finds.
        out += b"%010d 00000 n \n" % (offset + 7 if broken_offsets else offset)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, root, xref)
    return bytes(out)


def stream(data, extra=b"", compress=False):
    if compress:
        data = zlib.compress(data, 9)
        extra += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def page_tree(kids, extra=b""):
    return b"<< /Type /Pages /Kids [%s] /Count %d%s >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids), extra)


def minimal():
    """One page, one standard font, one line: the smallest document with text."""
    return one_font_page(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"BT /F1 12 Tf 72 720 Td (Hello, world) Tj ET")


def text_state():
    """Text state and geometry the fixtures do not vary: rotation by Tm, scaling,
    character and word spacing, rise, invisible text, a custom encoding with uniXXXX
    names, a form XObject, an inline image and a rotated, cropped page."""
    content = b"\n".join([
        b"BT /F1 10 Tf 50 700 Td 2 Tc 5 Tw 80 Tz (word one two) Tj ET",
        b"BT /F1 10 Tf 0 1 -1 0 250 400 Tm (up the page) Tj ET",
        b"BT /F1 10 Tf -1 0 0 -1 250 300 Tm 3 Ts (upside down) Tj ET",
        b"BT 3 Tr /F1 10 Tf 50 200 Td (hidden) Tj 0 Tr ET",
        b"BT /F2 14 Tf 50 150 Td <010203 2001> Tj [<01> -300 <02>] TJ ET",
        b"q 20 0 0 20 50 50 cm BI /W 2 /H 2 /BPC 8 /CS /G ID \x00\xff\xff\x00 EI Q",
        b"q 1 0 0 1 100 100 cm /X1 Do Q",
    ])
    form = b"BT /F1 8 Tf 0 0 Td (in a form) Tj ET"
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        page_tree([3]),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 800] /CropBox [10 20 390 780] "
        b"/Rotate 90 /Resources << /Font << /F1 5 0 R /F2 6 0 R >> "
        b"/XObject << /X1 7 0 R >> >> /Contents 4 0 R >>",
        stream(content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Legacy /FirstChar 1 /LastChar 32 "
        b"/Widths [500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 "
        b"500 500 500 500 500 500 500 500 500 500 500 500 500 500 500 250] "
        b"/Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding "
        b"/Differences [1 /uni0410 /afii10066 /g3 32 /space] >> >>",
        stream(form, b" /Type /XObject /Subtype /Form /BBox [0 0 200 50] "
               b"/Resources << /Font << /F1 5 0 R >> >>"),
    ])


def cid_fonts():
    """Type 0 fonts without programs: Identity-H with a partial ToUnicode that maps one
    code to a ligature, and Identity-V (vertical writing), over two pages."""
    to_unicode = b"\n".join([
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
        b"/CMapName /Test def 1 begincodespacerange <0000> <FFFF> endcodespacerange",
        b"2 beginbfchar <0003> <0020> <0004> <00660069> endbfchar",
        b"1 beginbfrange <0010> <0012> <0430> endbfrange",
        b"endcmap CMapName currentdict /CMap defineresource pop end end",
    ])
    cid_font = (b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NoProgram "
                b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
                b"/DW 600 /W [16 [500 520 540] 3 [250]] >>")
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        page_tree([3, 4], b" /Resources << /Font << /H 7 0 R /V 8 0 R >> >>"),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Contents 5 0 R >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Contents 6 0 R >>",
        stream(b"BT /H 12 Tf 20 250 Td <0010001100030012> Tj "
               b"[<0004> 120 <0010> -500 <0011>] TJ ET", compress=True),
        stream(b"BT /V 12 Tf 150 280 Td <001000110012> Tj ET"),
        b"<< /Type /Font /Subtype /Type0 /BaseFont /NoProgram /Encoding /Identity-H "
        b"/DescendantFonts [9 0 R] /ToUnicode 10 0 R >>",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /NoProgram /Encoding /Identity-V "
        b"/DescendantFonts [9 0 R] >>",
        cid_font,
        stream(to_unicode),
    ])


def scripts():
    """What the layout, reorder and vertical passes look for, which no other seed has: two
    columns on shared baselines, Devanagari drawn in visual order (a vowel sign before its
    consonant, a reph after), Hebrew drawn right to left and a column of full-width CJK
    glyphs stacked down the page, all in one Type 0 font without a program."""
    to_unicode = b"\n".join([
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
        b"/CMapName /Scripts def 1 begincodespacerange <0000> <FFFF> endcodespacerange",
        b"9 beginbfchar <0003> <0020> <0010> <093F> <0011> <0915> <0012> <094D> "
        b"<0014> <0930> <0015> <093E> <0020> <05D0> <0021> <05D1> <0022> <05D2> endbfchar",
        b"1 beginbfrange <0030> <0033> <4E00> endbfrange",
        b"endcmap CMapName currentdict /CMap defineresource pop end end",
    ])
    columns = b"".join(
        b"BT /F1 9 Tf %d %d Td (%s column line %d) Tj ET\n" % (x, 280 - 11 * row, side, row)
        for x, side in ((15, b"left"), (160, b"right")) for row in range(4))
    content = columns + b"\n".join([
        b"BT /D 12 Tf 20 200 Td <0010001100030011001500140012> Tj ET",
        b"BT /D 12 Tf 20 180 Td <00220003002100030020> Tj ET",
        b"BT /D 12 Tf 250 160 Td <0030> Tj 0 -12.2 Td <0031> Tj 0 -12.2 Td <0032> Tj "
        b"0 -12.2 Td <0033> Tj ET",
    ])
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        page_tree([3]),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] "
        b"/Resources << /Font << /F1 5 0 R /D 6 0 R >> >> /Contents 4 0 R >>",
        stream(content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /NoProgram /Encoding /Identity-H "
        b"/DescendantFonts [7 0 R] /ToUnicode 8 0 R >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NoProgram "
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
        b"/DW 500 /W [3 [250] 48 [1000 1000 1000 1000]] >>",
        stream(to_unicode),
    ])


def broken_xref():
    """Every xref offset wrong: poppler must rebuild the table from the objects."""
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        page_tree([3]),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        stream(b"BT /F1 9 Tf 10 150 Td (rebuilt) Tj ET"),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
    ], broken_offsets=True)


def object_streams():
    """PDF 1.5: objects inside a compressed object stream, found through an xref stream."""
    inner = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        page_tree([3]),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>",
    ]
    index, body = b"", b""
    for number, obj in enumerate(inner, start=1):
        index += b"%d %d " % (number, len(body))
        body += obj + b" "
    objstm = stream(index + body, b" /Type /ObjStm /N %d /First %d" % (len(inner), len(index)),
                    compress=True)

    out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    content_offset = len(out)
    out += b"5 0 obj\n" + stream(b"BT /F1 11 Tf 20 100 Td (abg) Tj ET") + b"\nendobj\n"
    objstm_offset = len(out)
    out += b"6 0 obj\n" + objstm + b"\nendobj\n"
    xref_offset = len(out)
    rows = [(0, 0, 255)]
    rows += [(2, 6, i) for i in range(len(inner))]     # objects 1-4 in stream 6
    rows += [(1, content_offset, 0), (1, objstm_offset, 0), (1, xref_offset, 0)]
    table = b"".join(bytes([t]) + o.to_bytes(4, "big") + bytes([g]) for t, o, g in rows)
    out += b"7 0 obj\n" + stream(table, b" /Type /XRef /Size 8 /W [1 4 1] /Root 1 0 R") \
        + b"\nendobj\n"
    out += b"startxref\n%d\n%%%%EOF\n" % xref_offset
    return bytes(out)


def one_font_page(font, content):
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        page_tree([3]),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        stream(content),
        font,
    ])


def regress_surrogate():
    """Found by fuzz-pdf: without a ToUnicode map poppler takes a CID for a code point,
    and CID 0xD800 is a lone surrogate, which no UTF-8 text may hold."""
    return pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        page_tree([3]),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        stream(b"BT /F1 12 Tf 20 100 Td <0041D8000042> Tj ET"),
        b"<< /Type /Font /Subtype /Type0 /BaseFont /NoMap /Encoding /Identity-H "
        b"/DescendantFonts [6 0 R] >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NoMap "
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> >>",
    ])


def regress_font_name():
    """Found by fuzz-pdf: a font name is bytes, not UTF-8. Japanese PDFs name fonts in
    Shift-JIS, like this MS Mincho (#82l#82r#96#BE#92#A9)."""
    return one_font_page(
        b"<< /Type /Font /Subtype /TrueType /BaseFont /#82l#82r#96#BE#92#A9 "
        b"/Encoding /WinAnsiEncoding >>",
        b"BT /F1 12 Tf 20 100 Td (Mincho) Tj ET")


def regress_long_font_name():
    """Found by fuzz-pdf: a long font name in a script other than Latin, cut to fit the
    Freki export's line label in the middle of a character."""
    return one_font_page(
        b"<< /Type /Font /Subtype /TrueType /BaseFont /" + b"#D0#B6" * 70 +
        b" /Encoding /WinAnsiEncoding >>",
        b"BT /F1 12 Tf 20 100 Td (Zhe) Tj ET")


def regress_infinite_position():
    """Found by fuzz-pdf: a position past the range of a float (PDF numbers have no
    exponent, but may have 40 digits) gives a glyph box of -inf, which the JSON export
    writes as -inf.0: not JSON."""
    return one_font_page(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"BT /F1 12 Tf -" + b"9" * 40 + b" 100 Td (far) Tj ET")


def write(directory, name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def make_pdfs():
    for name in COPIED_FIXTURES:
        shutil.copyfile(os.path.join(FIXTURES, name), os.path.join(PDF_DIR, "fixture-" + name))
    write(PDF_DIR, "hand-minimal.pdf", minimal())
    write(PDF_DIR, "hand-text-state.pdf", text_state())
    write(PDF_DIR, "hand-cid-fonts.pdf", cid_fonts())
    write(PDF_DIR, "hand-scripts.pdf", scripts())
    write(PDF_DIR, "hand-broken-xref.pdf", broken_xref())
    write(PDF_DIR, "hand-object-streams.pdf", object_streams())
    write(PDF_DIR, "regress-surrogate.pdf", regress_surrogate())
    write(PDF_DIR, "regress-font-name.pdf", regress_font_name())
    write(PDF_DIR, "regress-long-font-name.pdf", regress_long_font_name())
    write(PDF_DIR, "regress-infinite-position.pdf", regress_infinite_position())


def make_projects():
    document = os.path.join(FIXTURES, "legacy-cyrillic.pdf")
    with open(document, "rb") as f:
        sha256 = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(FIXTURES, "legacy-cyrillic.json"), encoding="utf-8") as f:
        truth = json.load(f)

    # Codes each font really draws, so that the entries point at real symbols. The engine
    # numbers fonts in the order they are first drawn, the ground truth in its own order.
    codes, engine_index = {}, {}
    for page in truth["pages"]:
        for line in page["lines"]:
            for glyph in line["glyphs"]:
                engine_index.setdefault(glyph["font"], len(engine_index))
                codes.setdefault(glyph["font"], []).append(glyph["code"])
    untrusted = next(i for i, font in enumerate(truth["fonts"]) if not font["trusted"])
    body = engine_index[untrusted]
    body_codes = sorted(set(codes[untrusted]))
    font_name = truth["fonts"][untrusted]["base_font"]

    def entry(code, value, status="confirmed", provenance="assign"):
        return {"font": body, "font_name": font_name, "font_sha256": None, "code": code,
                "value": value, "status": status, "provenance": provenance}

    valid = {
        "format": "decipher-project",
        "version": 1,
        "generator": "Decipher 0.1.0",
        "document": {"sha256": sha256, "file": "legacy-cyrillic.pdf",
                     "pages": len(truth["pages"])},
        "key": [
            entry(body_codes[0], "в", "inferred", "type: «Весной река»"),
            entry(body_codes[1], "е", "inferred", "type: «Весной река»"),
            entry(body_codes[2], ""),
            entry(body_codes[3], "\u0301", provenance=None),
            entry(body_codes[4], "ﬁ", "proposed", "glyph name"),
            entry(body_codes[5], "ӈ"),
        ],
        "conflicts": [
            {"font": body, "font_name": font_name, "code": body_codes[0], "current": "в",
             "current_provenance": "type: «Весной река»", "proposed": "ж",
             "proposed_provenance": "type: «жесной»", "line": 2, "token": 0, "tokens": 1},
        ],
        "history": ["Весной река", "ﬁ", ""],
    }

    def dump(project):
        return json.dumps(project, ensure_ascii=False, indent=2) + "\n"

    def variant(change):
        project = json.loads(json.dumps(valid))
        change(project)
        return dump(project)

    text = dump(valid)
    write(PROJECT_DIR, "valid.decipher", text)
    write(PROJECT_DIR, "valid-minimal.decipher", json.dumps({
        "format": "decipher-project", "version": 1, "document": valid["document"],
        "key": [entry(body_codes[6], "a")]}))
    write(PROJECT_DIR, "cut-short.decipher", text[: len(text) * 2 // 3])
    write(PROJECT_DIR, "other-document.decipher",
          variant(lambda p: p["document"].update(sha256="0" * 64, file="other.pdf")))
    write(PROJECT_DIR, "wrong-pages.decipher", variant(lambda p: p["document"].update(pages=7)))
    write(PROJECT_DIR, "newer-version.decipher", variant(lambda p: p.update(version=2)))
    write(PROJECT_DIR, "repeated-entry.decipher",
          variant(lambda p: p["key"].append(p["key"][0])))
    write(PROJECT_DIR, "bad-status.decipher",
          variant(lambda p: p["key"][0].update(status="from-pdf")))
    write(PROJECT_DIR, "undrawn-code.decipher", variant(lambda p: p["key"][0].update(code=1)))
    write(PROJECT_DIR, "unknown-font.decipher", variant(lambda p: p["key"][0].update(font=9)))
    write(PROJECT_DIR, "long-value.decipher",
          variant(lambda p: p["key"][0].update(value="ж" * 40)))
    write(PROJECT_DIR, "control-value.decipher",
          variant(lambda p: p["key"][0].update(value="\u0007")))
    write(PROJECT_DIR, "history-not-text.decipher",
          variant(lambda p: p.update(history=["ok", 3, None])))
    write(PROJECT_DIR, "deep.decipher", "[" * 40 + "]" * 40)
    write(PROJECT_DIR, "not-utf8.decipher", text.encode("utf-8").replace(b"\xd0\xb2", b"\xd0\x28"))
    # Found by fuzz-project: a project without history (a hand-made one, say) loaded
    # into a project whose history array was NULL, not an empty NULL-terminated list.
    write(PROJECT_DIR, "regress-empty-history.decipher", json.dumps({
        "format": "decipher-project", "version": 1, "document": valid["document"],
        "key": []}, separators=(",", ":")) + "\n")
    # Found by fuzz-project: json-glib 1.6 takes the last of several top-level values
    # for the whole file and leaks the others.
    write(PROJECT_DIR, "regress-trailing-value.decipher", "{}[]\n")
    # Found by fuzz-session: json-glib 1.6 leaks the string it was reading when a high
    # surrogate escape is followed by another escape than a low surrogate.
    write(PROJECT_DIR, "regress-surrogate-pair.decipher",
          text.replace('"Весной река"', '"Весной \\ud800\\u0440ека"', 1))
    # Journals: fuzz-project also replays each input as the journal of an empty project.
    def line(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"
    journal = "".join([
        line(entry(body_codes[0], "в", "inferred", "type: «в»")),
        line(entry(body_codes[1], "е")),
        line(entry(body_codes[1], "", "unknown", None)),
        line({"history": "в"}),
        line({"conflicts": valid["conflicts"]}),
        line({"conflicts": []}),
    ])
    write(PROJECT_DIR, "journal-lines", journal)
    write(PROJECT_DIR, "journal-torn", journal + '{"font":1,"font_na')
    write(PROJECT_DIR, "journal-bad-line", journal.replace('{"history"', '{"history":3,"x"', 1))
    # fuzz-session-open: decipher-cli session's start on damaged projects and journals.
    def opening(name, project, journal=None):
        data = project.encode("utf-8") if isinstance(project, str) else project
        if journal is not None:
            data += JOURNAL_MARK + (journal.encode("utf-8") if isinstance(journal, str)
                                    else journal)
        write(SESSION_OPEN_DIR, name, data)
    opening("valid", text)
    opening("valid-journal", text, journal)
    opening("journal-torn", text, journal + '{"font":1,"font_na')
    opening("journal-torn-in-character",
            text, journal.encode("utf-8") + '{"font":1,"value":"д'.encode("utf-8")[:-1])
    first, rest = journal.split("\n", 1)
    opening("journal-glued", text, first[: len(first) // 2] + rest)
    opening("journal-bad-line", text, journal.replace('{"history"', '{"history":3,"x"', 1))
    opening("cut-short", text[: len(text) * 2 // 3])
    opening("newer", variant(lambda p: p.update(version=99)))
    opening("other-document",
            variant(lambda p: p["document"].update(sha256="0" * 64, file="other.pdf")))
    opening("not-utf8", text.encode("utf-8").replace(b"\xd0\xb2", b"\xd0\x28"))
    opening("empty", "")
    opening("folder", "--folder--", journal)
    opening("deep", "[" * 40 + "]" * 40)
    # Bare values: what the key's validation gate sees from typed input.
    for name, value in [("letter", "ӈ"), ("decomposed", "e\u0301\u0323"),
                        ("ligature", "ﬁ"), ("line-separator", "a\u2028"),
                        ("replacement", "\ufffd"), ("noncharacter", "\ufdd0"),
                        ("seventeen", "абвгдеёжзийклмноп")]:
        write(PROJECT_DIR, "value-" + name, value)


def request(cmd, **arguments):
    return json.dumps(dict(cmd=cmd, **arguments), ensure_ascii=False)


def transcript(*lines):
    """One seed of fuzz-session: request lines as a script sends them. Strings go as they
    are, bytes too (for what is not UTF-8)."""
    return b"".join((line if isinstance(line, bytes) else line.encode("utf-8")) + b"\n"
                    for line in lines)


def make_sessions():
    # The numbers are those of legacy-cyrillic.pdf: line 1 is the first of its body text
    # ("Весной река широко…"), symbols 21-90 its legacy font's; after the first "type",
    # symbol 34 holds a code-page proposal.
    write(SESSION_DIR, "transcript", transcript(
        request("status"),
        request("lines"),
        request("lines", page=2),
        request("symbols"),
        request("suggest"),
        request("type", text="Весной река широко", line=1),
        request("type", text="рыбаки"),
        request("type", text="сети", line=2, token=5),
        request("suggest"),
        request("accept", symbol=34),
        request("assign", symbol=37, text="я"),
        request("assign", symbol=38, text=""),
        request("conflicts"),
        request("undo"),
        request("undo"),
        request("redo"),
        request("text"),
        request("save", path="copy.decipher"),
        request("status")))
    write(SESSION_DIR, "conflicts", transcript(
        request("type", text="Весной река широко", line=1),
        request("type", text="Весной рука широко", line=1),
        request("type", text="Весной река шырока", line=1, token=0),
        request("conflicts"),
        request("resolve", conflict=0, take="proposed"),
        request("resolve", conflict=1, take="current"),
        request("resolve", conflict=5, take="current"),
        request("resolve", conflict=0, take="both"),
        request("undo"),
        request("conflicts"),
        request("status")))
    write(SESSION_DIR, "matching", transcript(
        request("type", text="и"),
        request("type", text="снова выходят", line=1),
        request("type", text="за́мок"),
        request("type", text="замо́к на двери"),
        request("type", text="ударе́ние меняет смысл."),
        request("type", text="Қазақ даласы кең әрі жасыл."),
        request("type", text="Мӑӊ хӑнты ясӑӊа потэртӑсӑӊ."),
        request("type", text="«Ұлы ағаш түбінде ақ"),
        request("type", text="2024 тал, 17 ӿой."),
        request("type", text="ﬁ"),
        request("type", text="xyzzy qwerty"),
        request("type", text="   "),
        request("type", text=""),
        request("suggest"),
        request("lines", page=1)))
    write(SESSION_DIR, "malformed", transcript(
        "this is not json",
        "{\"cmd\": \"status\"",
        "{\"cmd\": \"status\",}",
        "[\"status\"]",
        "\"status\"",
        "null",
        "{}",
        "{\"cmd\": 5}",
        "{\"cmd\": {}}",
        "{\"cmd\": [\"status\"]}",
        "{\"cmd\": null}",
        "{'cmd': 'status'}",
        "{\"cmd\": /* a comment */ \"status\"}",
        "# a comment",
        "var request = {\"cmd\": \"status\"};",
        "{\"cmd\": \"st\\u0061tus\"}",
        "{\"cmd\": \"status\", \"cmd\": \"text\"}",
        "\t {\"cmd\" : \"status\"} \r",
        "",
        "   "))
    write(SESSION_DIR, "regress-trailing-request", transcript(
        "{\"cmd\": \"status\"}{\"cmd\": \"undo\"}",
        "{\"cmd\": \"status\"} {}",
        "{} []",
        "{\"cmd\": \"status\"} trailing"))
    # Found by fuzz-session: see regress-surrogate-pair.decipher.
    write(SESSION_DIR, "regress-surrogate-pair", transcript(
        "{\"cmd\": \"type\", \"text\": \"\\ud800\\u0041\"}",
        "{\"cmd\": \"type\", \"text\": \"\\udc00\\ud800\"}",
        request("status")))
    # Found by fuzz-session: the matcher compared typed text with an empty value (a glyph
    # the user said draws nothing) by memcmp() of a NULL array, undefined behaviour.
    write(SESSION_DIR, "regress-empty-value", transcript(
        request("assign", symbol=38, text=""),
        request("type", text="разливается, и")))
    write(SESSION_DIR, "deep", transcript(
        "{\"cmd\": \"status\", \"x\": " + "[" * 15 + "]" * 15 + "}",
        "{\"cmd\": \"status\", \"x\": " + "[" * 40 + "]" * 40 + "}",
        "[" * 3000))
    write(SESSION_DIR, "unknown-commands", transcript(
        request("fly"),
        request("Status"),
        request("status "),
        request(""),
        request("stat\u0000us"),
        "{\"command\": \"status\"}"))
    write(SESSION_DIR, "bad-arguments", transcript(
        request("type"),
        request("type", text=5),
        request("type", text=None),
        request("type", text="слово", line=-1),
        request("type", text="слово", line=28),
        request("type", text="слово", line=2**40),
        request("type", text="слово", line=1.5),
        request("type", text="слово", line="1"),
        request("type", text="слово", token=-3),
        request("type", text="a\u0001b"),
        request("type", text="a\u2028b"),
        request("assign", symbol=21),
        request("assign", text="ж"),
        request("assign", symbol=99999, text="ж"),
        request("assign", symbol=0, text="ж"),
        request("assign", symbol=21, text="абвгдеёжзийклмноп"),
        request("assign", symbol=21, text="e\u0301\u0323"),
        request("assign", symbol=21, text="\ufffd"),
        request("assign", symbol=21, text="\ufdd0"),
        request("accept", symbol=21),
        request("accept"),
        request("resolve", conflict=0, take="proposed"),
        request("lines", page=0),
        request("lines", page=3),
        request("lines", page="1"),
        request("undo", steps=3),
        request("redo"),
        request("save"),
        request("save", path=7),
        request("save", path=""),
        request("save", path="."),
        request("save", path=".."),
        request("save", path="session.decipher"),
        request("save", path="copy.decipher~")))
    huge_words = " ".join(["Весной река широко разливается, и старые лодки снова"] * 120)
    write(SESSION_DIR, "huge", transcript(
        request("type", text=huge_words),
        request("type", text="ж" * 3000, line=1),
        request("assign", symbol=21, text="ж" * 2000),
        request("x" * 2000),
        request("status", padding="\u0430" * 400),
        request("text")))
    write(SESSION_DIR, "bad-utf8", transcript(
        b"\xff",
        b"{\"cmd\": \"status\", \"x\": \"\xff\"}",
        b"{\"cmd\": \"type\", \"text\": \"\xd0\"}",
        b"{\"cmd\": \"type\", \"text\": \"\xc0\xaf\"}",
        b"{\"cmd\": \"type\", \"text\": \"\xed\xa0\x80\"}",
        b"{\"cmd\": \"type\", \"text\": \"\xf4\x90\x80\x80\"}",
        b"{\"cmd\": \"status\"}\x00{\"cmd\": \"undo\"}",
        "{\"cmd\": \"type\", \"text\": \"\\ud800\"}",
        "{\"cmd\": \"type\", \"text\": \"\\udc00\\ud800\"}",
        "{\"cmd\": \"assign\", \"symbol\": 21, \"text\": \"\\ud83d\\ude00\"}",
        "{\"cmd\": \"type\", \"text\": \"\\u0000\"}",
        b"\xef\xbb\xbf{\"cmd\": \"status\"}",
        b"{\"cmd\": \"status\"}\r"))


def main():
    os.makedirs(PDF_DIR, exist_ok=True)
    os.makedirs(PROJECT_DIR, exist_ok=True)
    os.makedirs(SESSION_DIR, exist_ok=True)
    os.makedirs(SESSION_OPEN_DIR, exist_ok=True)
    make_pdfs()
    make_projects()
    make_sessions()


if __name__ == "__main__":
    main()

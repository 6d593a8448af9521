"""PyDriller's per-file DMM delta risk profile, with lizard reading only what changed.

PyDriller's ``ModifiedFile._delta_risk_profile`` runs lizard over the whole file before and after
the change and subtracts the risk profiles (the volume of low- and high-risk methods). A method
that the change did not touch is measured the same on both sides and cancels out, so on a large
C file edited in one place most of both parses is wasted: it is what made DMM the costliest
quality fact (git/git: a 3,000-line ``.c`` file parsed twice for a two-line fix).

For lizard's C/C++ reader this module gets the same numbers from the changed region alone:

* Lines the two versions share at the start (the common prefix) are read identically by lizard,
  so at any line of the prefix its state is the same in both. Reading the *before* text from
  the top, the last line boundary inside the prefix where lizard's state equals a fresh
  reader's (no open function, nesting or pending declaration: :func:`_fresh`) is a cut: the
  methods above it are the same on both sides, and both sides can be read from the cut by a
  fresh reader with the same result as reading them whole.
* Below the change the two versions share their last lines (the common suffix). Both sides are
  read on from the cut, line by line, until a line of the suffix is reached at which *both*
  readers are fresh: from there on they read the same text from the same state, so the
  remaining methods are the same on both sides and cancel; reading stops.

* Shared stretches are not read through: the before reading starts again after the last line
  of the stretch that closes a top-level block (a ``}``/``};`` line with every brace above it,
  from the file's start or the last sync point, balanced; found by a fast scan that skips
  comments and strings, :func:`_top_level_start`). There lizard's reader is fresh, so the
  methods skipped are the same on both sides and cancel. On git/git's 3,119 sampled commits
  this gives the same DMM values as reading from the top.

Cuts are taken only after a line that holds nothing but the closing ``}`` (or ``};``) of a
top-level block, so no token (string, comment, macro) runs across the cut, and only where the
reader's state is exactly a fresh reader's, which makes the result equal by construction; tests
compare it with PyDriller's whole-file profiles on real files, and the DMM of git/git's sampled
commits is unchanged.

Python and Go files are cut into top-level chunks instead, at lines where lizard's reader is
fresh by a textual rule (:func:`_python_chunks`: a ``def``, ``class`` or decorator line at
column 0 after an indented line; :func:`_go_chunks`: a ``func`` or ``type`` line after a lone
top-level ``}``), and only the chunks that are not on both sides with the same text are read
(:func:`_changed_chunk_functions`): a chunk's functions depend on its text alone, so the shared
ones cancel. Where the rule cannot vouch for the state (a bracket closing none, a one-line
``def`` still pending, a ``#lizard`` directive) there is no cut. Checked against the whole
reading on real commits (the functions that differ, not only the totals): pytorch/benchmark,
litestar and psf/black for Python (3,384 file pairs), ory/kratos and goreleaser for Go; random
edits in the tests. Any other language, and small files, are read whole as PyDriller does.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from collections.abc import Iterator

__all__ = ["chunk_reader_applies", "delta_risk_profiles", "region_reader_applies"]

MIN_LINES = 150  # smaller files: the whole-file reading is as cheap as finding the region


def _properties():
    from pydriller.domain.commit import DMMProperty

    return (DMMProperty.UNIT_SIZE, DMMProperty.UNIT_COMPLEXITY, DMMProperty.UNIT_INTERFACING)


def _risk(functions, prop) -> tuple[int, int]:
    """PyDriller's ``ModifiedFile._risk_profile`` over lizard functions."""
    from pydriller.domain.commit import Method, ModifiedFile

    return ModifiedFile._risk_profile([Method(f) for f in functions], prop)


def _whole(filename: str, code: str | None) -> list:
    """lizard's functions of the whole text, as PyDriller reads them (none for no text)."""
    if not code:
        return []
    import lizard

    return lizard.analyze_file.analyze_source_code(filename, code).function_list


def region_reader_applies(filename: str) -> bool:
    """Whether the region reading is used for this file: lizard's plain C/C++ reader."""
    from lizard_languages import get_reader_for
    from lizard_languages.clike import CLikeReader

    return get_reader_for(filename) is CLikeReader


def chunk_reader_applies(filename: str) -> bool:
    """Whether the chunk reading is used for this file: lizard's Python and Go readers."""
    return _chunker(filename) is not None


def delta_risk_profiles(filename: str, before: str | None, after: str | None,
                        hunks=None) -> list[tuple[int, int]]:
    """``[(low, high)]`` for unit size, unit complexity and unit interfacing: the change in the
    volume of low- and of high-risk methods from ``before`` to ``after`` (PyDriller's
    ``_delta_risk_profile`` for each property, with its reading of missing or empty text).
    ``hunks``: the diff's ``(old_start, old_count, new_start, new_count)``, if known: each
    change is then read on its own (otherwise one region from the first to the last change)."""
    functions = None
    if before and after and region_reader_applies(filename):
        functions = _changed_region_functions(filename, before, after, hunks)
    elif before and after and chunk_reader_applies(filename):
        functions = _changed_chunk_functions(filename, before, after)
    if functions is None:
        functions = (_whole(filename, before), _whole(filename, after))
    old, new = functions
    out = []
    for prop in _properties():
        low_before, high_before = _risk(old, prop)
        low_after, high_after = _risk(new, prop)
        out.append((low_after - low_before, high_after - high_before))
    return out


# --- reading a region -----------------------------------------------------------------------


_UNREAD = object()


class _Reading:
    """lizard's reading of ``text`` (lines ``first``.. of a file), driven token by token.

    Its fresh boundaries (:meth:`peek`, :meth:`pop`) are the 0-based file line indexes ``i``
    such that the reader is fresh at the start of line ``i`` (just after a line holding only a
    closing ``}``/``};``), each with the number of ``functions`` lizard had completed by then.
    """

    def __init__(self, filename: str, lines: list[str], first: int):
        import lizard
        from lizard_core.file_info_builder import FileInfoBuilder
        from lizard_languages.clike import CLikeReader

        self.lines = lines
        self.first = first
        self.context = FileInfoBuilder(filename)
        self.reader = CLikeReader(self.context)
        tokens = self.reader.generate_tokens("".join(lines[first:]))
        for processor in lizard.analyze_file.processors:
            tokens = processor(tokens, self.reader)
        self.stream = self.reader(tokens, self.reader)
        self._bounds = self._boundaries()
        self._next = _UNREAD

    @property
    def functions(self) -> list:
        return self.context.fileinfo.function_list

    def _boundaries(self) -> Iterator[tuple[int, int]]:
        context, lines, first, functions = self.context, self.lines, self.first, self.functions
        for token in self.stream:
            if token != "}" and token != ";":
                continue
            index = first + context.current_line - 1  # the file line of this token
            closing = lines[index].strip()
            if (closing == "}" or closing == "};") and closing.endswith(token) and _fresh(self.reader):
                yield index + 1, len(functions)

    def peek(self) -> tuple[int, int] | None:
        """The next fresh boundary (file line index, functions completed by then), or None at
        the end of the text; :meth:`pop` moves past it."""
        if self._next is _UNREAD:
            self._next = next(self._bounds, None)
        return self._next

    def pop(self) -> tuple[int, int] | None:
        item = self.peek()
        self._next = _UNREAD
        return item

    def finish(self) -> int:
        """Read to the end; the number of functions completed."""
        for _ in self.stream:
            pass
        return len(self.functions)


_FRESH_CACHE: dict[type, list[dict]] = {}


def _state_vars(machine) -> dict:
    """A state machine's attributes, bound methods as their functions (comparable across
    instances); its context and last token are left out (the C reader never reads the last
    token; the context is checked on its own)."""
    out = {}
    for key, value in vars(machine).items():
        if key in ("context", "last_token"):
            continue
        out[key] = value.__func__ if inspect.ismethod(value) else value
    return out


def _fresh(reader) -> bool:
    """Whether ``reader`` (a CLikeReader mid-file) is in exactly the state of a new one."""
    context = reader.context
    nesting = context._nesting_stack
    if (context.current_function is not context.global_pseudo_function or context.stacked_functions
            or nesting.nesting_stack or nesting.pending_function is not None or context.forgive):
        return False
    fresh = _FRESH_CACHE.get(type(reader))
    if fresh is None:
        from lizard_core.file_info_builder import FileInfoBuilder

        fresh = [_state_vars(m) for m in type(reader)(FileInfoBuilder("x.c")).parallel_states]
        _FRESH_CACHE[type(reader)] = fresh
    return all(_state_vars(m) == f for m, f in zip(reader.parallel_states, fresh))


def _lines(text: str) -> list[str]:
    """The lines of ``text`` with their ends, split at "\\n" only (as lizard counts lines)."""
    parts = text.split("\n")
    return [line + "\n" for line in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _stretches(old: list[str], new: list[str], hunks) -> list[tuple[int, int, int]] | None:
    """``[(old_start, new_start, length)]``: the runs of lines the two versions share, in order,
    from the prefix to the suffix, taken from the diff's ``hunks`` ((old_start, old_count,
    new_start, new_count) as in ``@@`` headers) and checked line by line; without hunks, or when
    they do not fit the texts, only the common prefix and suffix. None: nothing differs."""
    def checked(runs):
        for o, n, length in runs:
            if length < 0 or old[o:o + length] != new[n:n + length]:
                return None
        return runs

    if hunks:
        runs, o, n = [], 0, 0
        for old_start, old_count, new_start, new_count in hunks:
            o_at = old_start - 1 if old_count else old_start  # "-a,0": an insertion after line a
            n_at = new_start - 1 if new_count else new_start
            runs.append((o, n, o_at - o))
            if o_at - o != n_at - n:
                runs = None
                break
            o, n = o_at + old_count, n_at + new_count
        if runs is not None and len(old) - o == len(new) - n:
            runs.append((o, n, len(old) - o))
            if checked(runs) is not None:
                return runs
    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    if prefix == len(old) == len(new):
        return None
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    return [(0, 0, prefix), (len(old) - suffix, len(new) - suffix, suffix)]


_SCAN = re.compile(r"""/\*.*?(?:\*/|\Z)|//[^\n]*|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?|[{}]""", re.S)
_CLOSING_LINE = re.compile(r"^\}[ \t]*;?[ \t]*$")


def _top_level_start(lines: list[str], end: int) -> int:
    """The index in ``lines`` just after the last line of ``lines[:end]`` that closes a top-level
    block (``}`` or ``};`` alone at the line start, outside comments and strings, with every
    brace above it balanced), or 0. A fast scan, not lizard's reading: it only chooses where
    the reading of the before text starts. Where braces do not balance (``#if``/``#else``
    branches that each open a block) no later line qualifies, and a closing brace with none
    open stops the scan at 0."""
    text = "".join(lines[:end])
    depth, best = 0, 0
    for match in _SCAN.finditer(text):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                return 0  # unbalanced: not plain C at the top
            if depth == 0:
                line_start = text.rfind("\n", 0, match.start()) + 1
                line_end = text.find("\n", match.end())
                if _CLOSING_LINE.match(text[line_start:line_end if line_end >= 0 else len(text)]) \
                        and line_end >= 0:
                    best = match.start()
    return text.count("\n", 0, best) + 1 if best else 0


def _changed_region_functions(filename: str, before: str, after: str, hunks=None) -> tuple[list, list] | None:
    """(before, after) functions of the changed regions, whose risk profiles differ as the whole
    files' do (module doc); None when the region reading does not apply.

    The *before* text is read from the top to the end of the last region. A region starts at
    the last fresh boundary of the before reading in a shared stretch (a new reader of the
    after text starts there) and ends at the first line of a later shared stretch where both
    readers are fresh at the same place; methods between regions are the same on both sides.
    """
    if "\r" in before or "\r" in after:
        return None  # a CR is not a line end to lizard: keep to the whole reading
    old_lines, new_lines = _lines(before), _lines(after)
    if min(len(old_lines), len(new_lines)) < MIN_LINES:
        return None
    runs = _stretches(old_lines, new_lines, hunks)
    if runs is None:
        return [], []  # the same text: nothing changes
    old = None
    old_functions, new_functions = [], []
    new = None
    start_count = 0  # functions of the before reading completed when the current region began
    for index, (o_start, n_start, length) in enumerate(runs):
        o_end = o_start + length
        n_off = n_start - o_start  # a line of this stretch in the after text
        if new is not None:
            # In a region: look for a boundary of this stretch where both readers are fresh.
            synced = None
            while True:
                a, b = old.peek(), new.peek()
                if a is None or b is None or a[0] > o_end or b[0] - n_off > o_end:
                    break
                if a[0] < o_start:
                    old.pop()
                elif b[0] - n_off < a[0]:
                    new.pop()
                elif b[0] - n_off > a[0]:
                    old.pop()
                else:
                    synced = (a, b)
                    break
            if synced is None:
                continue  # the region goes on into the next change
            (line, old_count), (_, new_count) = synced
            old_functions += old.functions[start_count:old_count]
            new_functions += new.functions[:new_count]
            new = None
            if index == len(runs) - 1:
                return old_functions, new_functions  # the rest is the same on both sides
            o_start = line  # the next region starts at this sync point at the earliest
            start_count = old_count
        if index == len(runs) - 1:
            break
        # The stretch's start (the file's start, or a sync point) is fresh: skip to its last
        # top-level block with a fresh reader rather than reading the methods in between.
        skip = _top_level_start(old_lines[o_start:o_end], o_end - o_start)
        if old is None or skip:
            o_start += skip
            old, start_count = _Reading(filename, old_lines, o_start), 0
        # Start the next region at the last fresh boundary of the before reading in this stretch.
        cut = (o_start, start_count)
        while (a := old.peek()) is not None and a[0] <= o_end:
            if a[0] >= o_start:
                cut = a
            old.pop()
        start_count = cut[1]
        new = _Reading(filename, new_lines, cut[0] + n_off)
    # The last region ran to the end of the files (a sync in the last stretch returned above).
    old_functions += old.functions[start_count:old.finish()]
    new_functions += new.functions[:new.finish()]
    return old_functions, new_functions


# --- reading changed top-level chunks (Python, Go) --------------------------------------------

# The tokens that can hide a line start from the reader's statements, in the order and form of
# lizard's own tokenizer (lizard_languages.token_pattern, plus each language's additions), so a
# string or comment runs exactly as far as lizard reads it: block comments, comments, strings
# (which lizard lets run over lines), digit separators (they hold a quote), brackets, and a
# continuation backslash. A quote that opens no string lizard can read is matched alone: the
# file is then not chunked.
_DIGITS = r"|(?<!\w)(?:\d+')+\d+|(?<!\w)0x(?:[0-9A-Fa-f]+')+[0-9A-Fa-f]+|(?<!\w)0b(?:[01]+')+[01]+"
_STRINGS = r'''|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*?\''''
_PY_SCAN = re.compile(
    r"(?=[/#\"'\\()\[\]{}\d])(?:"  # (the first characters: skips the rest 3x faster)
    r"/\*.*?\*/|\#[^\n]*|//=?"
    r'''|"""(?:\\.|[^"]|"(?!"")|""(?!"))*"""|\'\'\'(?:\\.|[^']|'(?!'')|''(?!'))*\'\'\''''
    + _DIGITS + _STRINGS + r'''|"""|\'\'\'|["']|\\\n|[()\[\]{}])''',
    re.M | re.S,
)
_PY_CODE_LINE = re.compile(r"(?m)^[ \t]*(?=[^\s#])")  # a line that holds more than a comment
_PY_TOP_LEVEL_DEFINITION = re.compile(r"(?:@|def\b|async[ \t]+def\b|class\b)")
_PY_DEF_LINE = re.compile(r"[ \t]*(?:async[ \t]+)?def\b")
_PY_NOTHING_AFTER = re.compile(r"[ \t]*(?:#|\n|\Z)")
_CLOSER = {"(": ")", "[": "]", "{": "}"}


class _Unsure(Exception):
    """The text is one the chunk rules cannot vouch for (broken, mid-edit or unusual)."""


def _scan_brackets(text: str, scan: re.Pattern, closing_line_visible: bool, on_token=None) -> list[tuple[int, int]]:
    """Sorted ``(start, end)`` character spans of ``text`` in which a line start does not start
    a statement: inside brackets, and inside strings, comments or continued lines that run
    over lines (``scan`` finds those tokens and the brackets). With ``closing_line_visible``,
    a line that starts with the bracket closing the outermost one is not hidden.
    ``on_token(match, depth)`` sees every token first. Raises :class:`_Unsure` on a bracket
    that closes none or another kind, a bracket left open, or a quote that opens no string:
    lizard's readers then go on in a state of their own."""
    hidden, stack, opened = [], [], 0
    for match in scan.finditer(text):
        token = match.group()
        if on_token is not None:
            on_token(match, len(stack))
        first = token[0]
        if first in "([{":
            if not stack:
                opened = match.start()
            stack.append(_CLOSER[first])
        elif first in ")]}":
            if not stack or stack.pop() != first:
                raise _Unsure
            if not stack:
                hidden.append((opened, match.start() if closing_line_visible else match.end()))
        elif token in ('"', "'", "`", '"""', "'''"):
            raise _Unsure
        elif stack:
            continue  # already hidden by the bracket
        elif token == "\\\n":
            hidden.append((match.start(), match.end() + 1))  # the next line continues this one
        elif "\n" in token.rstrip("\n"):
            hidden.append((match.start(), match.end()))
    if stack:
        raise _Unsure
    return hidden  # in order: a span is added only at depth 0


def _visible_lines(text: str, lines: re.Pattern, hidden: list[tuple[int, int]]) -> Iterator[re.Match]:
    """The matches of ``lines`` (one per line start) outside the ``hidden`` spans (sorted by
    start; they may nest)."""
    index = 0
    for match in lines.finditer(text):
        at = match.start()
        while index < len(hidden) and hidden[index][1] <= at:
            index += 1
        if not (index < len(hidden) and hidden[index][0] < at):
            yield match


def _python_chunks(text: str) -> list[str] | None:
    """``text`` cut before top-level ``def``, ``async def``, ``class`` and decorator lines (at
    column 0, outside strings, brackets and continued lines) that follow an indented line.

    lizard's Python reader closes functions by indentation: at a line back at column 0 it pops
    every indentation level, which ends the functions and clears a pending one. After an
    indented line there is a level to pop, so its state is then a fresh reader's, with a
    first token (``def``, ``class``, ``@``) that reads the same either way (lizard's only
    look-back, the triple-quoted-string rule, does not concern it). After a line at column 0
    there may be none: a one-line ``def f(): ...`` stays pending until the next indented line,
    which may be far below (it becomes that block's function), so no cut is made there.
    Reading the chunks one by one thus gives the functions of the whole reading, and a
    chunk's functions depend on its text alone.

    None (no chunks) where the rules cannot vouch for the reading (:func:`_scan_brackets`), or
    where a ``def`` header's ``)`` ends its line without the colon: lizard then takes the first
    token of the next line as the header's end."""
    header = {"line": -1, "open": False}  # the last line with a top-level "(", and whether it opened a def's parameters

    def check_def_header(match: re.Match, depth: int) -> None:
        token = match.group()
        if depth == 0 and token == "(":
            line_start = text.rfind("\n", 0, match.start()) + 1
            first = line_start != header["line"]
            header["line"], header["open"] = line_start, first and bool(_PY_DEF_LINE.match(text, line_start))
        elif depth == 1 and token == ")" and header["open"]:
            header["open"] = False
            if _PY_NOTHING_AFTER.match(text, match.end()):
                raise _Unsure

    try:
        hidden = _scan_brackets(text, _PY_SCAN, False, check_def_header)
    except _Unsure:
        return None
    cuts, indented = [0], False
    for match in _visible_lines(text, _PY_CODE_LINE, hidden):
        at = match.start()
        if indented and at and match.end() == at and _PY_TOP_LEVEL_DEFINITION.match(text, at):
            cuts.append(at)
        indented = match.end() > at
    return _split(text, cuts)


# Go: lizard's tokens with Go's raw strings; ``//`` comments go on after a line-ending backslash
# as lizard reads them; ``func`` and ``interface`` as words, for the declarations' bodies.
_GO_SCAN = re.compile(
    r"(?=[/`\"'\\fi()\[\]{}\d])(?:/\*.*?\*/|`[^`]*`" + _DIGITS + _STRINGS
    + r'''|//(?:\\\n|[^\n])*|["'`]|\\\n|(?<!\w)(?:func|interface)(?!\w)|[()\[\]{}])''',
    re.M | re.S,
)
_GO_CODE_LINE = re.compile(r"(?m)^[ \t]*(?=[^\s/]|/[^/*])")  # not blank, not starting with a comment
_GO_TOP_LEVEL_DEFINITION = re.compile(r"(?:func|type)\b")
_GO_DECLARATION_NAME = re.compile(r"\s*(?!func\b)[^\W\d]\w*")  # lizard's go_function.starts_declaration
_GO_SPACE = re.compile(r"(?:\s|/\*.*?\*/|//[^\n]*)*", re.S)  # what lizard's states do not see


def _go_chunks(text: str) -> list[str] | None:
    """``text`` cut before top-level ``func`` and ``type`` lines (at column 0, outside brackets,
    strings and comments) whose previous line of code is a lone ``}`` at column 0, the end of
    a top-level block. There lizard's Go reader is back in its global state with nothing
    pending (every signature it looked ahead at is complete), and what it remembers of the
    last token (``}``) changes nothing for a ``func`` or ``type`` that starts a line.

    Except after a top-level ``func`` whose body has not opened yet (a declaration without a
    body, implemented in assembly): lizard waits for the next ``{`` not after ``interface``,
    far below, and takes that block for its body. No cut is made while one waits; a ``{`` it
    would take inside an ``interface`` block leaves the file unchunked, like a backslash
    outside a string and the cases of :func:`_scan_brackets`."""
    waiting = []  # (from, to) spans in which a top-level func waits for its body
    state = {"since": None, "last": "", "last_end": 0, "interface_block": False}

    def follow_bodies(match: re.Match, depth: int) -> None:
        token = match.group()
        if token == "\\\n":
            raise _Unsure
        if token.startswith(("//", "/*")):
            return  # lizard's states do not see comments
        after_interface = state["last"] == "interface" and _GO_SPACE.fullmatch(
            text, state["last_end"], match.start()) is not None
        state["last"], state["last_end"] = token, match.end()
        if token == "func" and depth and _GO_DECLARATION_NAME.match(text, match.end()):
            raise _Unsure  # a declaration inside a block: lizard waits there for a body
        if depth == 0 and token == "func" and state["since"] is None:
            state["since"] = match.start()
        elif token == "{" and state["since"] is not None:
            if state["interface_block"]:
                raise _Unsure
            if depth == 0 and after_interface:
                state["interface_block"] = True
            elif depth == 0:  # (lizard may take a `struct{` of the result types before it: no cut there either)
                waiting.append((state["since"], match.start()))
                state["since"] = None
        elif token == "}" and depth == 1:
            state["interface_block"] = False

    try:
        hidden = _scan_brackets(text, _GO_SCAN, True, follow_bodies)
    except _Unsure:
        return None
    if state["since"] is not None:
        waiting.append((state["since"], len(text) + 1))
    cuts, after_block = [0], False
    wait = iter(waiting)
    span = next(wait, None)
    for match in _visible_lines(text, _GO_CODE_LINE, hidden):
        at = match.start()
        while span is not None and span[1] < at:
            span = next(wait, None)
        if (after_block and match.end() == at and _GO_TOP_LEVEL_DEFINITION.match(text, at)
                and not (span is not None and span[0] < at)):
            cuts.append(at)
        line_end = text.find("\n", at)
        after_block = text[at:line_end if line_end >= 0 else len(text)].rstrip() == "}"
    return _split(text, cuts)


def _split(text: str, cuts: list[int]) -> list[str]:
    cuts = [*cuts, len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]


def _chunker(filename: str):
    """The chunk splitter for lizard's reader of this file, or None."""
    from lizard_languages import get_reader_for
    from lizard_languages.go import GoReader
    from lizard_languages.python import PythonReader

    return {PythonReader: _python_chunks, GoReader: _go_chunks}.get(get_reader_for(filename))


_UNCHUNKED = ("\r", "lizard", "GENERATED CODE")


def _changed_chunk_functions(filename: str, before: str, after: str) -> tuple[list, list] | None:
    """(before, after) functions of the top-level chunks (:func:`_python_chunks`,
    :func:`_go_chunks`) that are not on both sides: a chunk that is, with the same text, holds the same functions on both sides,
    which cancel in the risk profiles. None when the chunk reading does not apply: a small file,
    a CR (not a line end to lizard), a ``#lizard`` directive (``forgive`` applies to the
    function after it, which may start a chunk of its own), a ``GENERATED CODE`` comment
    (lizard stops reading the file there), or a text the chunk rules cannot vouch for."""
    if any(word in text for text in (before, after) for word in _UNCHUNKED):
        return None
    if min(before.count("\n"), after.count("\n")) < MIN_LINES:
        return None
    chunks = _chunker(filename)
    old, new = chunks(before), chunks(after)
    if old is None or new is None:
        return None
    shared = Counter(old) & Counter(new)

    def unshared(chunks: list[str]) -> str:
        left = Counter(shared)
        out = []
        for chunk in chunks:
            if left[chunk]:
                left[chunk] -= 1
            else:
                out.append(chunk)
        return "".join(out)

    # Chunks start at a fresh reader's state and end at a line end outside any string or
    # bracket, so the chunks left on one side read together as they read one by one.
    return _whole(filename, unshared(old)), _whole(filename, unshared(new))

"""Which lines of a file lie inside its documentation (docstrings, block comments)."""

from exceeds_pipeline.enrich.docstrings import docstring_lines, language_of


def test_javascript_block_comments_hold_their_example_code_and_nothing_in_strings_opens_one():
    """execa's JSDoc has no `*` on its lines, and its `@example` blocks are plain code: every
    line of a `/* ... */` block is the comment's; a `/*` in a string, a template literal or after
    `//` opens none, and the code after a block closes is outside it."""
    text = (b"const a = '/* not a comment';\n"  # 1
            b"/**\n"  # 2
            b"Run a command.\n"  # 3
            b"@example\n"  # 4
            b"import {execa} from 'execa';\n"  # 5
            b"*/\n"  # 6
            b"export function f() {} // /* not one either\n"  # 7
            b"const t = `/* nor this`;\n"  # 8
            b"/* one line */ g();\n"  # 9
            b"h();\n")  # 10
    assert language_of(b"types/main.d.ts") == "js" and language_of(b"lib/index.mjs") == "js"
    assert docstring_lines("js", text) == {2, 3, 4, 5, 6, 9}

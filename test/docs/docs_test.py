#!/usr/bin/env python3
"""The docs test: every ```sql block of README.md and docs/*.md runs as
written, and every result the docs show is compared with the real one.

Run by test/docs/run.sh (see there for the conventions); standard library
only, psql for everything that touches the server.
"""

import os
import re
import subprocess
import sys
import tempfile
import threading
import time

FS = "\x1f"  # psql field separator (-F)
RS = "\x1e"  # psql record separator (-R)

SEPARATOR = re.compile(r"^-+(\+-+)*$")
ROWCOUNT = re.compile(r"^\((\d+) rows?\)$")
ELIDED = re.compile(r"^\.\.\.\s*(?:\((\d+) rows?\))?$")
TAG = re.compile(
    r"^(?:(?:SELECT|UPDATE|DELETE|COPY|MOVE|FETCH|MERGE) \d+|INSERT \d+ \d+"
    r"|(?:CREATE|DROP|ALTER) [A-Z]+(?: [A-Z]+)*"
    r"|BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SET|RESET|CALL|ANALYZE|VACUUM|TRUNCATE TABLE|DO)$"
)
ERROR_LINE = re.compile(r"^(ERROR|DETAIL|HINT|CONTEXT|WARNING|NOTICE):\s+(.*)$")
DIRECTIVE = re.compile(r"^<!--\s*docs-test:\s*(.*?)\s*(-->)?\s*$")
CREATES_SKETCH = re.compile(r"^\s*CREATE\s+EXTENSION\s+(IF\s+NOT\s+EXISTS\s+)?sketch\b", re.I)
CREATES_EXTENSION = re.compile(r"^\s*CREATE\s+EXTENSION\b", re.I)
NEEDS_CITUS = "needs a Citus cluster: run by test/citus.sh"
NOT_CITUS = "not a Citus example: run by test/docs/run.sh"


def norm(s):
    return " ".join(s.split())


# ---------------------------------------------------------------- markdown


class Statement:
    def __init__(self, sql, line):
        self.sql = sql            # text sent to psql, ending with ';'
        self.line = line          # line number in the .md file
        self.inline = None        # the comment after ';' on its last line
        self.shown = None         # ('table'|'error'|'tag'|'value', data)
        self.shown_line = None
        self.alternative = None   # statements of a `-- or: ...` comment


class Block:
    def __init__(self, path, line, lines):
        self.path = path
        self.line = line          # line of the ```sql fence
        self.lines = lines        # the block's lines
        self.statements = []
        self.needs = []           # fixture names
        self.requires = []        # extensions that must be available
        self.skip = None          # reason
        self.fresh = False        # runs in a new database
        self.citus = False        # runs only on a Citus cluster (--citus)
        self.parse_error = None


def parse_markdown(path):
    """Returns the ```sql blocks of a file with their directives."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks = []
    directives = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        m = DIRECTIVE.match(stripped)
        if m:
            if not m.group(2):
                raise SystemExit(f"{path}:{i + 1}: a docs-test directive must fit on one line")
            directives.append((i + 1, m.group(1)))
            i += 1
            continue
        if stripped.startswith("```"):
            lang = stripped[3:].strip()
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if lang == "sql":
                block = Block(path, i + 1, lines[i + 1:j])
                for dline, text in directives:
                    apply_directive(block, dline, text)
                parse_block(block)
                blocks.append(block)
            elif directives:
                raise SystemExit(f"{path}:{directives[0][0]}: docs-test directive before a non-sql block")
            directives = []
            i = j + 1
            continue
        if stripped and directives:
            raise SystemExit(f"{path}:{directives[0][0]}: docs-test directive not followed by a ```sql block")
        i += 1
    return blocks


def apply_directive(block, line, text):
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    if word == "skip":
        if not rest:
            raise SystemExit(f"{block.path}:{line}: skip needs a reason")
        block.skip = rest
    elif word == "needs":
        block.needs += [n for n in re.split(r"[\s,]+", rest) if n]
    elif word == "requires":
        block.requires += [n for n in re.split(r"[\s,]+", rest) if n]
    elif word in ("fresh-database", "citus"):
        if word == "fresh-database":
            block.fresh = True
        else:
            block.citus = True
        if rest:
            # a flag may be followed by another directive on the same line:
            # <!-- docs-test: fresh-database requires hll -->
            apply_directive(block, line, rest)
    else:
        raise SystemExit(f"{block.path}:{line}: unknown docs-test directive {word!r}")


class Lexer:
    """Just enough of PostgreSQL's lexer to find the ';' that ends a
    statement: quotes, E'' strings, dollar quotes, comments."""

    def __init__(self):
        self.state = None     # None, "'", "E'", '"', ('$', tag), ('/*', depth)

    def feed(self, line):
        """Scans one line; returns the index just past the first top-level
        ';', or None."""
        i, n = 0, len(line)
        while i < n:
            c = line[i]
            st = self.state
            if st is None:
                if c == "-" and line.startswith("--", i):
                    return None
                if c == "/" and line.startswith("/*", i):
                    self.state = ("/*", 1)
                    i += 2
                    continue
                if c == "'":
                    prev = line[i - 1] if i > 0 else ""
                    before = line[i - 2] if i > 1 else ""
                    if prev in "eE" and not (before.isalnum() or before == "_"):
                        self.state = "E'"
                    else:
                        self.state = "'"
                elif c == '"':
                    self.state = '"'
                elif c == "$":
                    m = re.match(r"\$([A-Za-z_][A-Za-z_0-9]*)?\$", line[i:])
                    prev = line[i - 1] if i > 0 else ""
                    if m and not (prev.isalnum() or prev == "_"):
                        self.state = ("$", m.group(0))
                        i += len(m.group(0))
                        continue
                elif c == ";":
                    return i + 1
            elif st == "'":
                if c == "'":
                    if line.startswith("''", i):
                        i += 1
                    else:
                        self.state = None
            elif st == "E'":
                if c == "\\":
                    i += 1
                elif c == "'":
                    if line.startswith("''", i):
                        i += 1
                    else:
                        self.state = None
            elif st == '"':
                if c == '"':
                    if line.startswith('""', i):
                        i += 1
                    else:
                        self.state = None
            elif st[0] == "$":
                if line.startswith(st[1], i):
                    i += len(st[1])
                    self.state = None
                    continue
            elif st[0] == "/*":
                if line.startswith("*/", i):
                    self.state = ("/*", st[1] - 1) if st[1] > 1 else None
                    i += 2
                    continue
                if line.startswith("/*", i):
                    self.state = ("/*", st[1] + 1)
                    i += 2
                    continue
            i += 1
        return None


def strip_comment_prefix(line):
    s = line.strip()
    assert s.startswith("--")
    s = s[2:]
    return s[1:] if s.startswith(" ") else s


def classify_comment_run(run):
    """What a run of comment lines right after a statement shows, or None
    when it is prose (e.g. the next statement's introduction)."""
    first = run[0].strip()
    if ERROR_LINE.match(first) and first.startswith("ERROR:"):
        msgs = []
        for r in run:
            m = ERROR_LINE.match(r.strip())
            if m:
                msgs.append([m.group(1), m.group(2)])
            elif msgs:
                msgs[-1][1] += " " + r.strip()
        return ("error", msgs), len(run)
    if "|" in first or (len(run) > 1 and SEPARATOR.match(run[1].strip())):
        return ("table", run), len(run)
    if TAG.match(first):
        return ("tag", first), 1
    if first.startswith("{") or first.startswith("["):
        return ("value", " ".join(r.strip() for r in run)), len(run)
    return None, 0


def parse_block(block):
    lines = block.lines
    lexer = Lexer()
    current = []          # lines of the statement being read
    start = None
    pending = None        # the last complete statement, awaiting output
    i = 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        lineno = block.line + 1 + i
        at_top = lexer.state is None and not any(
            l.strip() and not l.strip().startswith("--") for l in current)
        if at_top:
            if not s:
                pending = None
                current = []
                i += 1
                continue
            if pending is not None and pending.shown is None:
                # psql output pasted as is
                if ERROR_LINE.match(s) and s.startswith("ERROR:"):
                    j = i + 1
                    while j < len(lines) and (ERROR_LINE.match(lines[j].strip())
                                              or lines[j].startswith((" ", "\t")) and lines[j].strip()):
                        j += 1
                    shown, _ = classify_comment_run([l.strip() for l in lines[i:j]])
                    pending.shown, pending.shown_line = shown, lineno
                    i = j
                    continue
                if not s.startswith("--") and i + 1 < len(lines) and SEPARATOR.match(lines[i + 1].strip()):
                    j = i
                    while j < len(lines) and not ROWCOUNT.match(lines[j].strip()):
                        j += 1
                    if j == len(lines):
                        block.parse_error = f"line {lineno}: psql output without its (N rows) line"
                        return
                    pending.shown, pending.shown_line = ("table", lines[i:j + 1]), lineno
                    i = j + 1
                    continue
                if s.startswith("--") and not current:
                    j = i
                    while j < len(lines) and lines[j].strip().startswith("--"):
                        j += 1
                    run = [strip_comment_prefix(l) for l in lines[i:j]]
                    shown, used = classify_comment_run(run)
                    if shown:
                        pending.shown, pending.shown_line = shown, lineno
                        i += used
                        continue
            pending = None
            if s.startswith("\\"):
                block.parse_error = f"line {lineno}: psql meta-commands ({s.split()[0]}) are not supported"
                return
        if not current:
            start = lineno
        rest = line
        while True:
            end = lexer.feed(rest)
            if end is None:
                current.append(rest)
                break
            current.append(rest[:end])
            stmt = Statement("\n".join(current).strip(), start)
            # leading comment-only lines are not part of the statement
            sql_lines = "\n".join(current).split("\n")
            while sql_lines and (not sql_lines[0].strip() or sql_lines[0].strip().startswith("--")):
                sql_lines.pop(0)
                stmt.line += 1
            stmt.sql = "\n".join(sql_lines).strip()
            block.statements.append(stmt)
            current = []
            start = lineno
            rest = rest[end:]
            if rest.strip().startswith("--"):
                stmt.inline = rest.strip()[2:].strip()
                m = re.match(r"^or:\s*(.*;)$", stmt.inline)
                if m:
                    alt = Block(block.path, lineno - 1, [m.group(1)])
                    parse_block(alt)
                    if alt.parse_error or not alt.statements:
                        block.parse_error = f"line {lineno}: cannot read the alternative {m.group(1)!r}"
                        return
                    stmt.alternative = alt.statements
                    stmt.inline = None
                pending = stmt
                break
            if not rest.strip():
                pending = stmt
                break
        i += 1
    leftover = [l for l in current if l.strip() and not l.strip().startswith("--")]
    if leftover or lexer.state is not None:
        block.parse_error = f"line {start}: statement not terminated by ';'"


# ---------------------------------------------------------------- running


# --citus: the nodes as (host, port), the coordinator first. Without it the
# server is the one of PGHOST/PGPORT and there are no workers.
CITUS_NODES = []


def server_args(node=None):
    """psql's connection options for a node (default: the coordinator)."""
    if not CITUS_NODES:
        return []
    host, port = node or CITUS_NODES[0]
    return ["-h", host, "-p", port]


def psql_cmd(db, extra=(), node=None):
    return ["psql", "-X", "-q", *server_args(node), "-d", db, "-v", "ON_ERROR_STOP=0", *extra]


def admin(sql, db="postgres", node=None):
    r = subprocess.run(psql_cmd(db, ["-v", "ON_ERROR_STOP=1", "-c", sql], node),
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"docs: {sql}: {r.stderr.strip()}")


def create_database(db):
    """A fresh database; with --citus one on every node, with the citus
    extension, and the workers registered with the coordinator."""
    drop_database(db)
    for node in CITUS_NODES or [None]:
        admin(f'CREATE DATABASE "{db}" TEMPLATE template0', node=node)
    if CITUS_NODES:
        for node in CITUS_NODES:
            admin("SET client_min_messages = warning; CREATE EXTENSION citus", db, node)
        coordinator, workers = CITUS_NODES[0], CITUS_NODES[1:]
        admin(f"SELECT citus_set_coordinator_host('{coordinator[0]}', {coordinator[1]})", db)
        for host, port in workers:
            admin(f"SELECT citus_add_node('{host}', {port})", db)


def drop_database(db):
    # the coordinator first: it holds connections to the workers
    for node in CITUS_NODES or [None]:
        admin(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)', node=node)


def available_extensions():
    r = subprocess.run(psql_cmd("postgres", ["-At", "-c", "SELECT name FROM pg_available_extensions"]),
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"docs: cannot reach the server: {r.stderr.strip()}")
    return set(r.stdout.split())


def load_fixtures(path):
    fixtures = {}
    name = None
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            m = re.match(r"^--\s*fixture:\s*(\S+)", line)
            if m:
                name = m.group(1)
                fixtures[name] = (lineno, [])
            elif name:
                fixtures[name][1].append(line.rstrip("\n"))
    out = {}
    for name, (lineno, lines) in fixtures.items():
        b = Block(path, lineno, lines)
        parse_block(b)
        if b.parse_error:
            raise SystemExit(f"{path}: fixture {name}: {b.parse_error}")
        out[name] = b.statements
    return out


class Outcome:
    def __init__(self, kind, sqlstate=None, header=None, rows=None, tag=None, messages=None):
        self.kind = kind          # 'rows', 'tag', 'error'
        self.sqlstate = sqlstate
        self.header = header
        self.rows = rows
        self.tag = tag
        self.messages = messages or []   # [(ERROR|DETAIL|HINT..., text)]

    def describe(self):
        if self.kind == "error":
            msg = next((t for k, t in self.messages if k == "ERROR"), "")
            return f"ERROR {self.sqlstate}: {msg}"
        if self.kind == "tag":
            return self.tag or "(no output)"
        return render_table(self.header, self.rows)


def render_table(header, rows, limit=20):
    out = [" | ".join(header)] + [" | ".join(r) for r in rows[:limit]]
    if len(rows) > limit:
        out.append("...")
    out.append(f"({len(rows)} row{'' if len(rows) == 1 else 's'})")
    return "\n".join(out)


def run_segment(db, items):
    """items: list of (key, Statement). Runs them in one psql session and
    returns {key: Outcome}."""
    script = ["\\set ON_ERROR_STOP 0", "\\pset footer on", "\\pset null ''"]
    for key, st in items:
        script += [f"\\warn @@S {key}", f"\\echo @@S {key}", st.sql, "\\echo @@E :ERROR :SQLSTATE"]
    script.append("\\warn @@S end")
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, encoding="utf-8") as f:
        f.write("\n".join(script) + "\n")
        fname = f.name
    try:
        # a statement that hangs fails instead of stopping the test
        env = dict(os.environ)
        env["PGOPTIONS"] = (env.get("PGOPTIONS", "") + " -c statement_timeout=" +
                            env.get("DOCS_STATEMENT_TIMEOUT", "300s")).strip()
        r = subprocess.run(["psql", "-X", *server_args(), "-d", db, "-A", "-F", FS, "-R", RS, "-f", fname],
                           capture_output=True, text=True, encoding="utf-8", errors="replace", env=env)
    finally:
        os.unlink(fname)
    outcomes = {}
    # stdout: @@S key \n <output> @@E <error> <sqlstate>\n
    for m in re.finditer(r"^@@S (\S+)\n(.*?)^@@E (\S+) (\S*)\n", r.stdout, re.S | re.M):
        key, out, err, state = m.group(1), m.group(2), m.group(3), m.group(4)
        if err == "true":
            outcomes[key] = Outcome("error", sqlstate=state)
            continue
        rm = re.match(r"^(.*)" + RS + r"\((\d+) rows?\)\n$", out, re.S)
        zero_cols = re.match(r"^\((\d+) rows?\)\n$", out, re.S)
        if rm:
            recs = rm.group(1).split(RS)
            header = recs[0].split(FS)
            rows = [rec.split(FS) for rec in recs[1:]]
            outcomes[key] = Outcome("rows", header=header, rows=rows)
        elif zero_cols:
            outcomes[key] = Outcome("rows", header=[], rows=[[]] * int(zero_cols.group(1)))
        else:
            outcomes[key] = Outcome("tag", tag=out.strip())
    # stderr: messages between markers
    for m in re.finditer(r"^@@S (\S+)\n(.*?)(?=^@@S )", r.stderr, re.S | re.M):
        key = m.group(1)
        if key not in outcomes:
            continue
        msgs = []
        for line in m.group(2).split("\n"):
            line = re.sub(r"^psql:[^\n]*?:\d+: ", "", line)
            em = ERROR_LINE.match(line)
            if em:
                msgs.append([em.group(1), em.group(2)])
            elif msgs and line.strip() and not line.startswith("LINE ") and line.strip() != "^":
                msgs[-1][1] += " " + line.strip()
        outcomes[key].messages = [(k, t) for k, t in msgs]
    if r.returncode not in (0, 1, 3) or not r.stderr.rstrip().endswith("@@S end"):
        # psql itself failed (connection lost, server crash, ...)
        for key, _ in items:
            outcomes.setdefault(key, Outcome("error", sqlstate="psql",
                                             messages=[("ERROR", r.stderr.strip()[-500:] or "psql failed")]))
    return outcomes


# ---------------------------------------------------------------- comparing

TRUE = {"t", "true"}
FALSE = {"f", "false"}


def same_value(expected, actual):
    e, a = norm(expected), norm(actual)
    if e == a:
        return True
    if e.lower() in TRUE and a in TRUE or e.lower() in FALSE and a in FALSE:
        return True
    m = re.match(r"^~\s*(-?[\d.]+(?:e-?\d+)?)$", e)
    if m:
        try:
            ev, av = float(m.group(1)), float(a)
        except ValueError:
            return False
        decimals = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
        return abs(ev - av) <= 0.5 * 10 ** -decimals + 1e-12
    return False


def strip_remark(text):
    """'1000 (small sets are exact)' -> '1000'; None when there is none."""
    m = re.match(r"^(.*?\S)\s+\([^()]*\)$", text)
    return m.group(1) if m else None


def compare_inline(st, out):
    text = st.inline
    if out.kind == "error":
        m = re.match(r"^ERROR\s+([0-9A-Z]{5})\b\s*(.*)$", text)
        if not m:
            return f"unexpected {out.describe()}"
        msg = next((t for k, t in out.messages if k == "ERROR"), "")
        if m.group(1) != out.sqlstate:
            return f"expected ERROR {m.group(1)}, got {out.describe()}"
        rest = m.group(2).strip()
        if rest.startswith(":"):
            want = rest[1:].strip()
            if not norm(msg).startswith(norm(want)):
                return f"expected ERROR {m.group(1)}: {want}\n     got ERROR {out.sqlstate}: {msg}"
        return None
    if re.match(r"^ERROR\b", text):
        return f"expected {text}\n     got {one_line(out) if out.kind == 'rows' else out.describe()}"
    if out.kind == "tag":
        return None       # a remark on a statement that returns no rows
    candidates = [text]
    stripped = strip_remark(text)
    if stripped:
        candidates.append(stripped)
    for c in candidates:
        if match_inline_value(c, out):
            return None
    return f"expected {text}\n     got {one_line(out)}"


def one_line(out):
    if len(out.rows) == 0:
        return "no rows"
    if len(out.rows) == 1:
        return ", ".join(out.rows[0])
    text = "; ".join(", ".join(r) for r in out.rows[:5])
    return text + (f"; ... ({len(out.rows)} rows)" if len(out.rows) > 5 else "")


def match_inline_value(text, out):
    if norm(text) == "no rows":
        return len(out.rows) == 0
    if len(out.rows) != 1:
        return False
    row = out.rows[0]
    if len(row) == 1:
        return same_value(text, row[0])
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != len(row):
        return False
    for part, value, name in zip(parts, row, out.header):
        for prefix in (name + " ", name + ": ", name + " = "):
            if part.startswith(prefix):
                part = part[len(prefix):]
                break
        if not same_value(part, value):
            return False
    return True


def compare_shown(st, out):
    kind, data = st.shown
    if kind == "error":
        if out.kind != "error":
            return f"expected an error, got\n{indent(out.describe())}"
        problems = []
        for k, text in data:
            got = [t for kk, t in out.messages if kk == k]
            if not got:
                problems.append(f"expected {k}:  {text}\n     got no {k}")
            elif norm(got[0]) != norm(text):
                problems.append(f"expected {k}:  {text}\n     got {k}:  {got[0]}")
        return "\n".join(problems) or None
    if out.kind == "error":
        return f"unexpected {out.describe()}"
    if kind == "tag":
        got = out.tag if out.kind == "tag" else f"{len(out.rows)} rows"
        return None if norm(got) == norm(data) else f"expected {data}, got {got}"
    if out.kind != "rows":
        return f"expected rows, got {out.describe()}"
    if kind == "value":
        if len(out.rows) == 1 and len(out.rows[0]) == 1 and same_value(data, out.rows[0][0]):
            return None
        return f"expected {data}\n     got {one_line(out)}"
    # table
    lines = [l for l in data if l.strip()]
    header = [c.strip() for c in lines[0].split("|")]
    exp_rows, count, elided = [], None, False
    for l in lines[1:]:
        s = l.strip()
        if SEPARATOR.match(s):
            continue
        m = ROWCOUNT.match(s)
        if m:
            count = int(m.group(1))
            continue
        m = ELIDED.match(s)
        if m:
            elided = True
            if m.group(1):
                count = int(m.group(1))
            continue
        exp_rows.append([c.strip() for c in l.split("|")])
    problems = []
    if [norm(h) for h in header] != [norm(h) for h in out.header]:
        problems.append(f"columns: expected {' | '.join(header)}\n          got {' | '.join(out.header)}")
    got_rows = out.rows[:len(exp_rows)] if elided else out.rows
    if count is not None and count != len(out.rows):
        problems.append(f"expected {count} rows, got {len(out.rows)}")
    if len(got_rows) != len(exp_rows) or any(
            len(e) != len(g) or not all(same_value(a, b) for a, b in zip(e, g))
            for e, g in zip(exp_rows, got_rows)):
        diff = []
        for idx in range(max(len(exp_rows), len(got_rows))):
            e = " | ".join(exp_rows[idx]) if idx < len(exp_rows) else None
            g = " | ".join(got_rows[idx]) if idx < len(got_rows) else None
            if e is not None and g is not None and len(exp_rows[idx]) == len(got_rows[idx]) and \
                    all(same_value(a, b) for a, b in zip(exp_rows[idx], got_rows[idx])):
                diff.append(f"    {e}")
                continue
            if e is not None:
                diff.append(f"  - {e}")
            if g is not None:
                diff.append(f"  + {g}")
        problems.append("rows differ (- docs, + actual):\n" + "\n".join(diff))
    return "\n".join(problems) or None


def indent(text, prefix="     "):
    return "\n".join(prefix + l for l in text.split("\n"))


def check(st, out):
    if st.shown is not None:
        return compare_shown(st, out)
    if st.inline is not None:
        return compare_inline(st, out)
    if out.kind == "error":
        return f"unexpected {out.describe()}"
    return None


# ---------------------------------------------------------------- driver


def slug(path):
    return re.sub(r"[^a-z0-9]+", "_", os.path.splitext(os.path.basename(path))[0].lower())


def run_doc(path, blocks, fixtures, extensions):
    """Returns a list of (block, status, details) in block order."""
    results = {}
    segments = []          # [db, [(key, stmt)]]
    owner = {}             # key -> (block index, what to call it on failure)
    seg = None
    loaded = set()

    def new_segment(first_statements, bi):
        db = f"docs_{slug(path)}" + (f"_{len(segments)}" if segments else "")
        segment = [db, []]
        segments.append(segment)
        # unless the first block installs extensions itself (sketch, or
        # the peer postgresql-hll, whose type hll would clash with ours)
        if not any(CREATES_EXTENSION.match(st.sql) for st in first_statements):
            key = f"x{len(segments)}"
            segment[1].append((key, Statement("CREATE EXTENSION sketch;", 0)))
            owner[key] = (bi, "CREATE EXTENSION sketch (added by the docs test)")
        return segment

    for bi, block in enumerate(blocks):
        if block.skip:
            results[bi] = ("skip", block.skip)
            continue
        if block.citus != bool(CITUS_NODES):
            results[bi] = ("skip", NEEDS_CITUS if block.citus else NOT_CITUS)
            continue
        missing = [e for e in block.requires if e not in extensions]
        if missing:
            results[bi] = ("skip", f"needs the {', '.join(missing)} extension, which is not installed")
            continue
        if block.parse_error:
            results[bi] = ("FAIL", block.parse_error)
            continue
        unknown = [n for n in block.needs if n not in fixtures]
        if unknown:
            results[bi] = ("FAIL", f"unknown fixture {', '.join(unknown)} (test/docs/fixtures.sql)")
            continue
        if seg is None or block.fresh:
            seg = new_segment(block.statements, bi)
            loaded = set()
        # fixtures run before the block, or right after its own
        # CREATE EXTENSION sketch
        after = next((si + 1 for si, st in enumerate(block.statements) if CREATES_SKETCH.match(st.sql)), 0)
        for si, st in enumerate(block.statements[:after]):
            seg[1].append((f"b{bi}.{si}", st))
            owner[f"b{bi}.{si}"] = (bi, None)
        for name in block.needs:
            if name not in loaded:
                loaded.add(name)
                for k, st in enumerate(fixtures[name]):
                    key = f"f{bi}.{name}.{k}"
                    seg[1].append((key, st))
                    owner[key] = (bi, f"fixture {name} (test/docs/fixtures.sql:{st.line})")
        for si, st in enumerate(block.statements[after:], after):
            key = f"b{bi}.{si}"
            seg[1].append((key, st))
            owner[key] = (bi, None)
        # `-- or: <statements>` after a statement: the alternative runs too,
        # in a database of its own
        for si, st in enumerate(block.statements):
            if st.alternative:
                alt = new_segment(st.alternative, bi)
                for k, ast in enumerate(st.alternative):
                    key = f"a{bi}.{si}.{k}"
                    alt[1].append((key, ast))
                    owner[key] = (bi, f"the alternative on line {st.line}")
                # later blocks continue in the main database
        results[bi] = None

    outcomes = {}
    for db, items in segments:
        create_database(db)
        try:
            outcomes.update(run_segment(db, items))
        finally:
            if not os.environ.get("DOCS_KEEP"):
                drop_database(db)

    details = {bi: [] for bi in results}
    for db, items in segments:
        for key, st in items:
            bi, what = owner[key]
            out = outcomes.get(key)
            if out is None:
                details[bi].append(f"line {st.line}: did not run")
                continue
            if what is not None and not key.startswith("a"):
                if out.kind == "error":
                    details[bi].append(f"{what}: {out.describe()}")
                continue
            problem = check(st, out)
            if problem:
                first = st.sql.split("\n")[0]
                if len(first) > 90:
                    first = first[:87] + "..."
                where = f"line {st.line}" if what is None else what
                details[bi].append(f"{where}: {first}\n{indent(problem)}")
    for bi in results:
        if results[bi] is None:
            results[bi] = ("FAIL", "\n".join(details[bi])) if details[bi] else ("ok", None)
    return [(blocks[bi],) + results[bi] for bi in range(len(blocks))]


def parse_nodes(text):
    nodes = []
    for item in text.split(","):
        host, sep, port = item.strip().rpartition(":")
        if not sep or not host or not port.isdigit():
            raise SystemExit(f"docs: --citus wants host:port,host:port,... (the coordinator first), not {text!r}")
        nodes.append((host, port))
    if len(nodes) < 2:
        raise SystemExit("docs: --citus needs the coordinator and at least one worker")
    return nodes


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    os.chdir(root)
    argv = list(argv)
    if argv and argv[0].startswith("--citus"):
        option = argv.pop(0)
        if option.startswith("--citus="):
            value = option[len("--citus="):]
        elif option == "--citus" and argv:
            value = argv.pop(0)
        else:
            raise SystemExit(f"docs: unknown option {option}")
        CITUS_NODES[:] = parse_nodes(value)
    files = argv or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir("docs") if f.endswith(".md"))
    fixtures = load_fixtures("test/docs/fixtures.sql")
    docs = [(f, parse_markdown(f)) for f in files]
    extensions = available_extensions()
    if "sketch" not in extensions:
        raise SystemExit("docs: the sketch extension is not installed on this server")
    if CITUS_NODES and "citus" not in extensions:
        raise SystemExit("docs: --citus, but the citus extension is not installed on the coordinator")
    start = time.time()
    # pages in parallel (DOCS_JOBS), reported in order; only the standard
    # library of python3-minimal is used
    jobs = max(1, int(os.environ.get("DOCS_JOBS", "2")))
    pages = [(f, blocks) for f, blocks in docs if blocks]
    done = [threading.Event() for _ in pages]
    results = [None] * len(pages)
    slots = threading.Semaphore(jobs)

    def work(i):
        with slots:
            try:
                results[i] = run_doc(pages[i][0], pages[i][1], fixtures, extensions)
            except BaseException as e:  # reported by the main thread
                results[i] = e
            finally:
                done[i].set()

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(len(pages))]
    for t in threads:
        t.start()
    counts = {"ok": 0, "FAIL": 0, "skip": 0}
    for i in range(len(pages)):
        done[i].wait()
        if isinstance(results[i], BaseException):
            raise results[i]
        for block, status, details in results[i]:
            where = f"{block.path}:{block.line}"
            n = len(block.statements)
            label = f"{n} statement{'' if n == 1 else 's'}"
            counts[status] += 1
            if status == "ok":
                print(f"ok    {where} ({label})")
            elif status == "skip":
                print(f"skip  {where} ({details})")
            else:
                print(f"FAIL  {where} ({label})")
                print(indent(details, "      "))
        sys.stdout.flush()
    nblocks = sum(counts.values())
    print(f"docs: {nblocks} blocks of {len(pages)} files in {time.time() - start:.0f} s")
    print(f"docs: {counts['ok']} passed, {counts['FAIL']} failed, {counts['skip']} skipped")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

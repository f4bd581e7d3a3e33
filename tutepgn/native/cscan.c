/* The reader's hot loops in C: the header scan (the tags of consecutive records in export layout, in one call)
 * and the export reader's trick lines (read_tricks, at the end of this file).
 *
 * Built into the same extension as the solver (tutepgn.native.ccore: one build, one fallback); the Python
 * side, and the reference it must agree with, is tutepgn/notation/split.py (_export_headers, plain_tags):
 * a record at pos starts with '[', its head (tag lines only) ends at the first blank line, the play follows
 * (its first line not starting with '[', ' ', '\t', ';' or '\r'), no line of the play is indented, and the
 * next record starts at the next line starting with '['.  Each head line is exactly [Name "value"]: a name
 * as the grammar reads one ([A-Za-z][A-Za-z0-9_]*), a value without '"', '\\' or a line break, no tag twice.
 * The scan stops at the first record that is not so (or that no record follows), and Python reads on.
 * tests/test_reader_lax.py holds both to the same headers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define AT(i) PyUnicode_READ(kind, data, (i))

static int is_letter(Py_UCS4 c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* Where "\n" followed by c2 first stands in [from, end - 1), or -1. */
static Py_ssize_t find_pair(int kind, const void *data, Py_ssize_t from, Py_ssize_t end, Py_UCS4 c2) {
    for (Py_ssize_t i = from; i + 1 < end; i++)
        if (AT(i) == '\n' && AT(i + 1) == c2) return i;
    return -1;
}

/* The tags of the head text[pos:head_end] into a new dict, or NULL (no exception set) when it is not plain
 * tag lines; *lines gets their number.  NULL with an exception set: out of memory. */
static PyObject *head_tags(PyObject *text, int kind, const void *data, Py_ssize_t pos, Py_ssize_t head_end,
                           Py_ssize_t *lines) {
    PyObject *tags = PyDict_New();
    if (!tags) return NULL;
    Py_ssize_t q = pos, n = 0;
    while (1) {
        if (q >= head_end || AT(q) != '[') goto no;
        Py_ssize_t name = ++q;
        if (q >= head_end || !is_letter(AT(q))) goto no;
        while (q < head_end) {
            Py_UCS4 c = AT(q);
            if (!(is_letter(c) || (c >= '0' && c <= '9') || c == '_')) break;
            q++;
        }
        Py_ssize_t name_end = q;
        if (q + 1 >= head_end || AT(q) != ' ' || AT(q + 1) != '"') goto no;
        q += 2;
        Py_ssize_t value = q;
        while (q < head_end) {
            Py_UCS4 c = AT(q);
            if (c == '"' || c == '\\' || c == '\n') break;
            q++;
        }
        if (q + 2 > head_end || AT(q) != '"' || AT(q + 1) != ']') goto no;
        PyObject *k = PyUnicode_Substring(text, name, name_end);
        PyObject *v = k ? PyUnicode_Substring(text, value, q) : NULL;
        if (!v || PyDict_SetItem(tags, k, v) < 0) {
            Py_XDECREF(k);
            Py_XDECREF(v);
            Py_DECREF(tags);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(v);
        n++;
        if (PyDict_GET_SIZE(tags) != n) goto no; /* a repeated tag */
        q += 2;
        if (q == head_end) break;
        if (AT(q) != '\n') goto no;
        q++;
    }
    *lines = n;
    return tags;
no:
    Py_DECREF(tags);
    return NULL;
}

static PyObject *scan_export(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "Un", &text, &pos)) return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t size = PyUnicode_GET_LENGTH(text);
    PyObject *heads = PyList_New(0), *counts = PyList_New(0);
    if (!heads || !counts) goto fail;
    while (pos >= 0 && pos < size && AT(pos) == '[') {
        Py_ssize_t head_end = find_pair(kind, data, pos, size, '\n');
        if (head_end < 0 || head_end + 2 >= size) break;
        Py_UCS4 c = AT(head_end + 2);
        if (c == '[' || c == '\n' || c == ' ' || c == '\t' || c == ';' || c == '\r') break;
        Py_ssize_t nxt = find_pair(kind, data, head_end, size, '[');
        if (nxt < 0) break;
        nxt += 1; /* the next record's '[' */
        if (find_pair(kind, data, head_end, nxt, ' ') >= 0 || find_pair(kind, data, head_end, nxt, '\t') >= 0) break;
        Py_ssize_t lines = 0;
        PyObject *tags = head_tags(text, kind, data, pos, head_end, &lines);
        if (!tags) {
            if (PyErr_Occurred()) goto fail;
            break;
        }
        for (Py_ssize_t i = head_end + 1; i < nxt; i++)
            if (AT(i) == '\n') lines++;
        PyObject *count = PyLong_FromSsize_t(lines);
        int bad = !count || PyList_Append(heads, tags) < 0 || PyList_Append(counts, count) < 0;
        Py_DECREF(tags);
        Py_XDECREF(count);
        if (bad) goto fail;
        pos = nxt;
    }
    return Py_BuildValue("NNn", heads, counts, pos);
fail:
    Py_XDECREF(heads);
    Py_XDECREF(counts);
    return NULL;
}

/* The card of an export-format card word in text[from, to) (1-7 or 10-12, then O C E B) as rank * 4 + suit,
 * or -1. */
static int card_key(int kind, const void *data, Py_ssize_t from, Py_ssize_t to) {
    Py_ssize_t len = to - from;
    int rank;
    if (len == 2 && AT(from) >= '1' && AT(from) <= '7') rank = AT(from) - '0';
    else if (len == 3 && AT(from) == '1' && AT(from + 1) >= '0' && AT(from + 1) <= '2') rank = 10 + AT(from + 1) - '0';
    else return -1;
    switch (AT(to - 1)) {
        case 'O': return rank * 4;
        case 'C': return rank * 4 + 1;
        case 'E': return rank * 4 + 2;
        case 'B': return rank * 4 + 3;
        default: return -1;
    }
}

/* read_tricks(lines, i, last, trick, most, seats, plays, events): the export reader's common case, in C.
 *
 * The Python loop it stands for is tutepgn/notation/export.py (_read), which stays the reference: from
 * lines[i] on, while i < last, each line "K. S c1 c2 ... cn" with K the expected trick number (below most,
 * written without leading zero), S one of the one-letter seat names of `seats` (its index is the seat), exactly
 * n = len(plays) cards, single spaces and nothing else, appends the plays plays[(S + k) % n][key of ck] to
 * events.  It stops, consuming nothing of it, at the first other line (a declaration, an open last trick, an
 * error), where Python reads on; it returns (i, trick) where it stopped.  tests/test_reader_fuzz.py holds the
 * two loops to the same records. */
static PyObject *read_tricks(PyObject *self, PyObject *args) {
    PyObject *lines, *seats, *plays, *events;
    Py_ssize_t i, last, trick, most;
    if (!PyArg_ParseTuple(args, "O!nnnnUO!O!", &PyList_Type, &lines, &i, &last, &trick, &most, &seats,
                          &PyTuple_Type, &plays, &PyList_Type, &events))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(plays);
    if (n < 1 || n > 4 || last > PyList_GET_SIZE(lines)) {
        PyErr_SetString(PyExc_ValueError, "read_tricks: 1 to 4 seats, and last within the lines");
        return NULL;
    }
    for (Py_ssize_t s = 0; s < n; s++)
        if (!PyTuple_Check(PyTuple_GET_ITEM(plays, s)) || PyTuple_GET_SIZE(PyTuple_GET_ITEM(plays, s)) != 52) {
            PyErr_SetString(PyExc_ValueError, "read_tricks: each seat's plays are a tuple of 52");
            return NULL;
        }
    int skind = PyUnicode_KIND(seats);
    const void *sdata = PyUnicode_DATA(seats);
    Py_ssize_t nseats = PyUnicode_GET_LENGTH(seats);
    for (; i < last && trick < most; i++, trick++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        if (!PyUnicode_Check(line)) break;
        int kind = PyUnicode_KIND(line);
        const void *data = PyUnicode_DATA(line);
        Py_ssize_t size = PyUnicode_GET_LENGTH(line), q = 0;
        Py_ssize_t number = 0;
        if (size < 1 || AT(0) == '0') break;
        while (q < size && AT(q) >= '0' && AT(q) <= '9' && q < 6) number = number * 10 + (AT(q++) - '0');
        if (number != trick || q + 3 >= size || AT(q) != '.' || AT(q + 1) != ' ' || AT(q + 3) != ' ') break;
        Py_UCS4 name = AT(q + 2);
        Py_ssize_t leader = -1;
        for (Py_ssize_t s = 0; s < nseats; s++)
            if (PyUnicode_READ(skind, sdata, s) == name) { leader = s; break; }
        if (leader < 0 || leader >= n) break;
        q += 4;
        PyObject *found[4];
        Py_ssize_t k = 0;
        int whole = 0; /* exactly n cards, then the end of the line */
        while (k < n) {
            Py_ssize_t end = q;
            while (end < size && AT(end) != ' ') end++;
            int key = card_key(kind, data, q, end);
            if (key < 0) break;
            PyObject *play = PyTuple_GET_ITEM(PyTuple_GET_ITEM(plays, (leader + k) % n), key);
            if (play == Py_None) break;
            found[k++] = play;
            if (end == size) {
                whole = k == n;
                break;
            }
            q = end + 1;
        }
        if (!whole) break;
        for (Py_ssize_t j = 0; j < n; j++)
            if (PyList_Append(events, found[j]) < 0) return NULL;
    }
    return Py_BuildValue("nn", i, trick);
}

static PyMethodDef cscan_methods[] = {
    {"scan_export", scan_export, METH_VARARGS,
     "scan_export(text, pos): the tags of the records from pos on while they are in export layout with plain "
     "tag lines and another record follows, the number of lines of each, and where the scan stopped."},
    {"read_tricks", read_tricks, METH_VARARGS,
     "read_tricks(lines, i, last, trick, most, seats, plays, events): append the plays of the trick lines from "
     "lines[i] on to events while they are in export form; (i, trick) where it stopped."},
    {NULL, NULL, 0, NULL},
};

/* Called by PyInit_ccore: the header scan's function joins the solver's module. */
int cscan_add(PyObject *module) {
    return PyModule_AddFunctions(module, cscan_methods);
}

"""Signatures of the mctsat functions and classes, read from what the extension declares: the
first line of each pybind11 docstring ("name(arg: type = default, ...) -> type") and, for
`optimize`'s search and extraction keywords, the option registry (`mctsat.options()`). They give
the Python wrappers an `inspect.signature` and are written out as the package's `.pyi` stub
(`write_stub`, run by the build), so neither is declared twice.
"""

import ast
import inspect
import re

_PARAMETER_KINDS = {
    "positional": inspect.Parameter.POSITIONAL_OR_KEYWORD,
    "keyword": inspect.Parameter.KEYWORD_ONLY,
}


def _clean_type(text):
    """A pybind11 type name as a stub annotation: the package's own classes unqualified, `Any`
    for pybind11's generic handles and for C++ names the extension does not export."""
    text = re.sub(r"\bmctsat\._core\.", "", text.strip())
    text = re.sub(r"\b(handle|object|kwargs|args)\b", "Any", text)
    text = re.sub(r"\bfunction\b", "Callable[..., Any]", text)
    try:
        ast.parse(text, mode="eval")
    except SyntaxError:
        return "Any"
    return text


def _split_top_level(text):
    """Splits `text` at the commas outside brackets and quotes."""
    parts, depth, quote, current = [], 0, None, ""
    for char in text:
        if quote:
            current += char
            if char == quote:
                quote = None
            continue
        if char in "'\"":
            quote = char
        elif char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += char
    if current.strip():
        parts.append(current)
    return parts


def _default_value(text):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return ...  # a default Python cannot spell (a C++ object): shown as `...`


def parse_docstring_signature(name, doc):
    """(parameters, return annotation) from a pybind11 docstring's first line, or None. Each
    parameter is (name, kind, annotation, default or inspect.Parameter.empty)."""
    if not doc:
        return None
    first = doc.strip().splitlines()[0]
    match = re.match(r"^" + re.escape(name) + r"\((.*)\)(?:\s*->\s*(.+))?$", first)
    if not match:
        return None
    parameters, kind = [], "positional"
    for part in _split_top_level(match.group(1)):
        part = part.strip()
        if part == "*":
            kind = "keyword"
            continue
        if part.startswith("**"):
            parameters.append((part[2:].split(":")[0].strip(), "var_keyword", "Any",
                               inspect.Parameter.empty))
            continue
        if part.startswith("*"):
            parameters.append((part[1:].split(":")[0].strip(), "var_positional", "Any",
                               inspect.Parameter.empty))
            kind = "keyword"
            continue
        head, _, default = part.partition("=")
        arg, _, annotation = head.partition(":")
        parameters.append((arg.strip(), kind, _clean_type(annotation) or "Any",
                           _default_value(default.strip()) if default else inspect.Parameter.empty))
    return parameters, _clean_type(match.group(2) or "Any")


def _option_parameters(core):
    """optimize()'s keywords from the option registry: (name, annotation, default)."""
    out = []
    for option in core.options():
        keywords = option.get("keywords") or [option["name"].replace(".", "_")]
        kind = option.get("type", "")
        if kind == "choice" and option.get("choices"):
            annotation = "Literal[{}]".format(", ".join(repr(c) for c in option["choices"]))
        else:
            annotation = {"count": "int", "real": "float", "flag": "bool"}.get(str(kind), "Any")
        for keyword in keywords:
            out.append((keyword, annotation, option.get("default", ...)))
    return out


def signature_parts(core, name, function):
    """A function's parameters and return annotation; optimize's **kwargs become the registry's
    keywords."""
    parsed = parse_docstring_signature(name, getattr(function, "__doc__", None))
    if parsed is None:
        return None
    parameters, returns = parsed
    if name == "optimize" and parameters and parameters[-1][1] == "var_keyword":
        taken = {p[0] for p in parameters}
        parameters = parameters[:-1] + [
            (keyword, "keyword", annotation, default)
            for keyword, annotation, default in _option_parameters(core) if keyword not in taken]
    return parameters, returns


def to_signature(parts):
    parameters, returns = parts
    kinds = {**_PARAMETER_KINDS, "var_keyword": inspect.Parameter.VAR_KEYWORD,
             "var_positional": inspect.Parameter.VAR_POSITIONAL}
    return inspect.Signature(
        [inspect.Parameter(name, kinds[kind], default=default, annotation=annotation)
         for name, kind, annotation, default in parameters],
        return_annotation=returns)


def _stub_parameters(parameters, is_method):
    out, star = [], False
    for index, (name, kind, annotation, default) in enumerate(parameters):
        if is_method and index == 0:
            out.append("self")
            continue
        if kind == "keyword" and not star:
            out.append("*")
            star = True
        if kind == "var_keyword":
            out.append(f"**{name}: {annotation}")
            continue
        if kind == "var_positional":
            out.append(f"*{name}: {annotation}")
            star = True
            continue
        text = f"{name}: {annotation}"
        if default is not inspect.Parameter.empty:
            text += " = " + ("..." if default is ... else repr(default))
        out.append(text)
    return ", ".join(out)


def _docstring_body(doc):
    lines = (doc or "").strip().splitlines()
    signature_line = bool(lines) and re.match(r"^\w+\(.*\)(\s*->.*)?$", lines[0])
    body = "\n".join(lines[1:] if signature_line else lines).strip()
    return body.replace('"""', "'''").replace("\\", "\\\\")


def stub_text(core):
    """The `.pyi` text of the package: every public function and class of `core`."""
    lines = ['"""Type stubs of mctsat (generated from the extension by mctsat._signatures)."""',
             "", "from typing import *", "", "__version__: str", ""]
    public = sorted(n for n in dir(core) if not n.startswith("_"))
    for name in public:
        value = getattr(core, name)
        if isinstance(value, type):
            if issubclass(value, BaseException):
                lines += [f"class {name}(Exception): ...", ""]
                continue
            lines.append(f"class {name}:")
            if value.__doc__ and value.__doc__.strip():
                lines.append(f'    """{_docstring_body(value.__doc__)}"""')
            members = 0
            for attribute in sorted(vars(value)):
                if attribute.startswith("__") and attribute not in (
                        "__init__", "__call__", "__len__", "__getattr__", "__dir__", "__eq__"):
                    continue
                member = vars(value)[attribute]
                if isinstance(member, property):
                    returns = "Any"
                    parsed = parse_docstring_signature("", getattr(member.fget, "__doc__", ""))
                    if parsed:
                        returns = parsed[1]
                    lines.append(f"    @property\n    def {attribute}(self) -> {returns}: ...")
                    members += 1
                    continue
                parsed = parse_docstring_signature(attribute, getattr(member, "__doc__", None))
                if parsed is None:
                    continue
                lines.append(f"    def {attribute}({_stub_parameters(parsed[0], True)})"
                             f" -> {parsed[1]}: ...")
                members += 1
            if members == 0 and not (value.__doc__ or "").strip():
                lines.append("    ...")
            lines.append("")
            continue
        parts = signature_parts(core, name, value)
        if parts is None or name == "load_results":  # defined in Python: written below
            continue
        lines.append(f"def {name}({_stub_parameters(parts[0], False)}) -> {parts[1]}:")
        lines.append(f'    """{_docstring_body(value.__doc__)}"""')
        lines.append("")
    lines += ["def load_results(path: str, as_frame: bool = False) -> Any:",
              '    """' + _LOAD_RESULTS_DOC + '"""', ""]
    return "\n".join(lines)


_LOAD_RESULTS_DOC = (
    "Every run record of a results directory (its runs*.jsonl) or of one runs file, as dicts, "
    "deduplicated and in run order; as_frame=True returns a pandas DataFrame instead (nested "
    "keys flattened with pandas.json_normalize: 'result.speedup_percent').")


def write_stub(path):
    """Writes the stub to `path` (the build runs this after building the extension)."""
    from mctsat import _core

    text = stub_text(_core)
    ast.parse(text)  # a stub that does not parse fails the build
    with open(path, "w") as out:
        out.write(text)

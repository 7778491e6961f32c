"""`pip install .` for mctsat: a PEP 517 build backend, in the tree (pyproject.toml names it with
`backend-path`), that needs nothing from the network and nothing beyond the standard library, so
that it works offline and with Debian's packages only (scikit-build-core is not in Debian 12).

It drives the project's own CMake build: the build directory $MCTSAT_BUILD_DIR, else the
`release` preset's build/release (configured with `cmake --preset release` when it is not yet),
builds the Python module and the executable, installs the build into a staging prefix with
`cmake --install`, and packs that into a wheel for the running Python:
  - the package `mctsat` (the extension, its Python files and type stub) into site-packages;
  - the rule library and the examples into <prefix>/share/mctsat/, where the package and the
    executable find them relative to themselves;
  - the `mctsat` executable into <prefix>/bin.
The wheel is tagged for this interpreter only (the extension is built for one Python); a build
directory configured for another Python is refused with a message that says how to fix it.
"""

import base64
import hashlib
import os
import pathlib
import re
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
NAME = "mctsat"
SUMMARY = ("Tensor-graph superoptimization by equality saturation and Monte Carlo tree search")


def _version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(mctsat VERSION ([0-9.]+)", text).group(1)


def _tag():
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{python}-{python}-{platform}"


def _metadata():
    major, minor = sys.version_info.major, sys.version_info.minor
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\nSummary: {SUMMARY}\n"
            f"Requires-Python: >={major}.{minor},<{major}.{minor + 1}\n")


def _run(command, **kwargs):
    print("mctsat build:", " ".join(map(str, command)), file=sys.stderr)
    subprocess.run([str(c) for c in command], check=True, **kwargs)


def _build_dir():
    build = pathlib.Path(os.environ.get("MCTSAT_BUILD_DIR", ROOT / "build" / "release"))
    if not (build / "CMakeCache.txt").exists():
        if "MCTSAT_BUILD_DIR" in os.environ:
            raise RuntimeError(f"MCTSAT_BUILD_DIR={build} is not a configured CMake build")
        _run(["cmake", "--preset", "release", f"-DPython_EXECUTABLE={sys.executable}"], cwd=ROOT)
    return build


def _cache_value(build, key):
    match = re.search(rf"^{key}:[A-Z]+=(.*)$", (build / "CMakeCache.txt").read_text(), re.M)
    return match.group(1) if match else None


def _stage(build, prefix):
    """Builds and installs into `prefix`; returns the staged package folder."""
    _run(["cmake", "--build", build, "--target", "mctsat_python", "mctsat"])
    _run(["cmake", "--install", build, "--prefix", prefix])
    packages = sorted(pathlib.Path(prefix).glob("lib/python*/site-packages/mctsat"))
    if len(packages) != 1:
        raise RuntimeError(f"cmake --install put no single mctsat package under {prefix}")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not (packages[0] / f"_core{suffix}").exists():
        built = [p.name for p in packages[0].glob("_core*")]
        raise RuntimeError(
            f"the build in {build} made the extension for another Python ({', '.join(built)}; "
            f"Python_EXECUTABLE={_cache_value(build, 'Python_EXECUTABLE')}), not for "
            f"{sys.executable} ({suffix}): install with that Python, or point MCTSAT_BUILD_DIR at "
            f"a build configured with -DPython_EXECUTABLE={sys.executable}")
    return packages[0]


def _dist_info(directory):
    info = pathlib.Path(directory) / f"{NAME}-{_version()}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata())
    (info / "WHEEL").write_text(
        f"Wheel-Version: 1.0\nGenerator: mctsat_build_backend\nRoot-Is-Purelib: false\n"
        f"Tag: {_tag()}\n")
    return info


def _record_line(archive_name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{archive_name},sha256={digest},{len(data)}"


def _add(wheel, records, archive_name, path):
    data = pathlib.Path(path).read_bytes()
    entry = zipfile.ZipInfo(archive_name, date_time=(2020, 1, 1, 0, 0, 0))
    entry.compress_type = zipfile.ZIP_DEFLATED
    executable = os.access(path, os.X_OK)
    entry.external_attr = ((0o755 if executable else 0o644) | 0o100000) << 16
    wheel.writestr(entry, data, compresslevel=1)
    records.append(_record_line(archive_name, data))


# PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _dist_info(metadata_directory).name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    build = _build_dir()
    version = _version()
    wheel_path = pathlib.Path(wheel_directory) / f"{NAME}-{version}-{_tag()}.whl"
    data = f"{NAME}-{version}.data"
    with tempfile.TemporaryDirectory(prefix="mctsat-wheel-") as scratch:
        prefix = pathlib.Path(scratch) / "prefix"
        package = _stage(build, prefix)
        info = _dist_info(pathlib.Path(scratch) / "info")
        records = []
        with zipfile.ZipFile(wheel_path, "w") as wheel:
            for path in sorted(package.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    _add(wheel, records, f"mctsat/{path.relative_to(package).as_posix()}", path)
            for path in sorted((prefix / "share").rglob("*")):
                if path.is_file():
                    _add(wheel, records, f"{data}/data/{path.relative_to(prefix).as_posix()}", path)
            _add(wheel, records, f"{data}/scripts/mctsat", prefix / "bin" / "mctsat")
            for name in ("METADATA", "WHEEL"):
                _add(wheel, records, f"{info.name}/{name}", info / name)
            records.append(f"{info.name}/RECORD,,")
            wheel.writestr(f"{info.name}/RECORD", "\n".join(records) + "\n")
    return wheel_path.name

"""Executes one notebook in the Deno kernel with nbclient and, when asked, writes its HTML report
in the same Python process: one interpreter start and one set of Jupyter imports per notebook
instead of a second `jupyter nbconvert --to html` process. scripts/jupyter.mjs drives it.

    python3 execute.py TIMEOUT_SECONDS TRANSIENT_FIX_PY [--report] [--relay]

Protocol (stdin and stdout, so the caller can change the executed notebook before its report):
  1. stdin, first line: the notebook as one line of JSON.
  2. stdout: the executed notebook (nbformat's own formatting), then one NUL character. It is
     executed up to and including a failing or timed-out cell when one fails.
  3. with --report, stdin, next line: the path of the .ipynb to render (the caller has written
     it, possibly changed) or an empty line for no report; the report goes next to it as
     `<name>.html`, exactly as `jupyter nbconvert --to html <path>` would write it, and its
     path follows the NUL on stdout.
Exit status 0, or 3 when a cell failed, with the error on stderr after "CellExecutionError: ".
"""
import os
import runpy
import sys

import nbformat
import nbformat.validator
from nbclient.client import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError


def cache_validators():
    """nbformat 5.5 (Debian 12's) compiles its JSON schema anew for every relaxed validation, and
    every nbconvert preprocessor asks for one: compiling, not rendering, took most of the
    conversion's time. A compiled validator depends only on its arguments, so one per set serves."""
    compiled = {}
    original = nbformat.validator.get_validator

    def get_validator(version=None, version_minor=None, relax_add_props=False, name=None):
        key = (version, version_minor, relax_add_props, name, os.environ.get("NBFORMAT_VALIDATOR"))
        if key not in compiled:
            compiled[key] = original(version, version_minor, relax_add_props=relax_add_props, name=name)
        return compiled[key]

    nbformat.validator.get_validator = get_validator


def kernel_dirs():
    """Where jupyter_client looks for kernelspecs, in its order, without the IPython import its
    default makes only to name ~/.ipython/kernels (it loads IPython's terminal, a good part of
    this process's start-up)."""
    from jupyter_core.paths import jupyter_path

    ipython_dir = os.environ.get("IPYTHONDIR") or os.path.join(os.path.expanduser("~"), ".ipython")
    return jupyter_path("kernels") + [os.path.join(os.path.normpath(os.path.expanduser(ipython_dir)), "kernels")]


def kernel_manager_class(relay):
    """nbclient's kernel manager, finding kernelspecs in `kernel_dirs()`. Without `relay`, the
    project's kernelspec starts Deno itself rather than behind scripts/jupyter-kernel/relay.py:
    the relay keeps the kernel answering clients that connect again (a JupyterLab reload), and
    nbclient is the kernel's one client from start to end, so it would only add a Python
    process to every run. `--relay` keeps it (setup's check of the kernelspec as installed)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    class KernelManager(AsyncKernelManager):
        @default("kernel_spec_manager")
        def _kernel_spec_manager_default(self):
            return KernelSpecManager(data_dir=self.data_dir, kernel_dirs=kernel_dirs())

        def format_kernel_cmd(self, extra_arguments=None):
            cmd = super().format_kernel_cmd(extra_arguments)
            # [python, relay.py, CONNECTION_FILE, DENO, ARG...]: the relay runs DENO ARG... --conn FILE.
            if relay or len(cmd) < 4 or os.path.basename(cmd[1]) != "relay.py":
                return cmd
            return cmd[3:] + ["--conn", cmd[2]]

    return KernelManager


def write_report(ipynb_path):
    """What `jupyter nbconvert --to html ipynb_path` does: the html exporter with nbconvert's
    configuration (the same config files, found the same way), the same resources, and the
    output written next to the notebook in UTF-8."""
    from jupyter_core.application import JupyterApp
    from nbconvert.exporters import HTMLExporter

    class Config(JupyterApp):
        name = "jupyter-nbconvert"

    app = Config()
    app.load_config_file()
    exporter = HTMLExporter(config=app.config)
    directory, basename = os.path.split(ipynb_path)
    name = basename[: basename.rfind(".")]
    resources = {"config_dir": app.config_dir, "unique_key": name, "output_files_dir": f"{name}_files"}
    output, resources = exporter.from_filename(ipynb_path, resources=resources)
    html_path = os.path.join(directory, name + resources.get("output_extension", ".html"))
    with open(html_path, "w", encoding="utf-8") as f:
        f.write(output)
    return html_path


def main(argv):
    timeout, transient_fix = int(argv[1]), argv[2]
    report = "--report" in argv[3:]
    relay = "--relay" in argv[3:]
    cache_validators()
    runpy.run_path(transient_fix)
    nb = nbformat.reads(sys.stdin.readline(), as_version=4)
    client = NotebookClient(nb, kernel_name="deno", kernel_manager_class=kernel_manager_class(relay), timeout=timeout, resources={"metadata": {"path": os.getcwd()}})
    failure = None
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as error:
        failure = error
    sys.stdout.write(nbformat.writes(nb) + "\0")
    sys.stdout.flush()
    if report:
        path = sys.stdin.readline().strip()
        if path:
            sys.stdout.write(write_report(path) + "\n")
    if failure is not None:
        sys.stderr.write("CellExecutionError: " + str(failure))
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

# This file is part of lpmc: a BenchExec tool-info module for it.
#
# BenchExec (https://github.com/sosy-lab/benchexec) loads tool-info modules from its
# package `benchexec.tools`: copy this file there (see README.md, "Running lpmc with
# BenchExec"), then name the tool `lpmc` in a benchmark definition.
"""Tool-info module for lpmc, a symbolic model checker for linear programs with arrays."""

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """
    lpmc decides whether an error location (reach_error(), a failing assert, an ERROR:
    label) is reachable: SV-COMP's unreach-call property; with `--property FILE.prp` also
    no-overflow (signed overflows only) and valid-memsafety (for programs whose memory
    is arrays: accesses out of bounds only); any other property is UNKNOWN. Exit codes:
    0 SAFE, 10 UNSAFE, 20 UNKNOWN, 2 bad input. With `--witness FILE` it writes an
    SV-COMP witness (format 2.0) of a SAFE or UNSAFE verdict.
    """

    REQUIRED_PATHS = []

    def executable(self, tool_locator):
        # The tool directory (or the working directory) is the repository, with the
        # release build in target/release; or the folder of the binary itself.
        try:
            return tool_locator.find_executable("lpmc", subdir="target/release")
        except benchexec.tools.template.ToolNotFoundException:
            return tool_locator.find_executable("lpmc")

    def name(self):
        return "lpmc"

    def version(self, executable):
        # `lpmc --version` prints "lpmc 0.1.0".
        return self._version_from_tool(executable, line_prefix="lpmc")

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "check"]
        # lpmc reads the property file (by its name, else by its LTL formulas) and
        # answers UNKNOWN, naming it, for a property it does not check.
        if task.property_file and "--property" not in options:
            cmd += ["--property", task.property_file]
        # lpmc answers UNKNOWN on time, a little before BenchExec would kill it.
        limit = rlimits.walltime or rlimits.cputime
        if limit and "--timeout" not in options:
            cmd += ["--timeout", str(max(1, int(limit) - 1))]
        data_model = (task.options or {}).get("data_model") if task.options else None
        if data_model and "--data-model" not in options:
            cmd += ["--data-model", data_model]
        return cmd + list(options) + [task.single_input_file]

    def determine_result(self, run):
        code = run.exit_code.value if run.exit_code else None
        verdict = None
        for line in run.output:
            line = line.strip()
            for word in ("UNSAFE", "SAFE", "UNKNOWN"):
                if line.endswith(": " + word):
                    verdict = word
                    break
            if verdict:
                break
        if code == 0 or (code is None and verdict == "SAFE"):
            return result.RESULT_TRUE_PROP
        if code == 10 or (code is None and verdict == "UNSAFE"):
            # The reason says which error was reached: a signed overflow (no-overflow),
            # an array access out of bounds (valid-memsafety: an invalid dereference),
            # else an error location (unreach-call).
            for line in run.output:
                line = line.strip()
                if line.startswith("reason: a signed integer overflow at line"):
                    return result.RESULT_FALSE_OVERFLOW
                if line.startswith("reason: an array access out of bounds at line"):
                    return result.RESULT_FALSE_DEREF
                if line.startswith("reason:"):
                    break
            return result.RESULT_FALSE_REACH
        if code == 20:
            for line in run.output:
                if "reason:" in line and "time limit" in line:
                    return result.RESULT_TIMEOUT
            return result.RESULT_UNKNOWN
        if code == 2:
            return result.RESULT_ERROR + " (bad input)"
        if run.exit_code and run.exit_code.signal:
            return result.RESULT_ERROR + " (signal)"
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # `reason` (the line after the verdict) or `time`.
        for line in output:
            line = line.strip()
            if line.startswith(identifier + ":"):
                return line[len(identifier) + 1 :].strip()
        return None

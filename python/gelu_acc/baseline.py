"""The few things the module reads in a gelu-acc baseline file (format:
README, "Baselines"): its sections, and each one's kernel, inputs and format.
gelu-acc itself parses and checks the rest."""
import re

SECTION = re.compile(r"^\s*\[([^\]]+)\]\s*$")


class Section:
    """One '[name]' section: its lines (first and last index in the file) and settings."""

    def __init__(self, name, first):
        self.name = name
        self.first = first
        self.last = first
        self.settings = {}

    def outputs_file(self):
        """The FILE of 'kernel = outputs:FILE', or None for other kernels."""
        kernel = self.settings.get("kernel", "")
        return kernel[len("outputs:"):] if kernel.startswith("outputs:") else None


def read_sections(text):
    """The sections of a baseline's text, in order."""
    sections = []
    for index, line in enumerate(text.splitlines()):
        match = SECTION.match(line)
        if match:
            sections.append(Section(match.group(1), index))
            continue
        if not sections:
            continue
        if line.strip() and not line.lstrip().startswith("#"):
            sections[-1].last = index
        if "=" in line and not line.lstrip().startswith("#"):
            key, value = line.split("=", 1)
            sections[-1].settings[key.strip()] = value.split(" #", 1)[0].strip()
    return sections


def select(sections, path, format_name, name=None):
    """The section to grade: the one called ``name``, else the only outputs
    section of the format.  ValueError saying which sections there are."""
    if name is not None:
        chosen = [s for s in sections if s.name == name]
        if not chosen:
            raise ValueError("%s: no section [%s] (sections: %s)"
                             % (path, name, ", ".join(s.name for s in sections) or "none"))
    else:
        chosen = [s for s in sections
                  if s.outputs_file() is not None and s.settings.get("format") == format_name]
        if len(chosen) != 1:
            raise ValueError("%s: %s sections with 'kernel = outputs:FILE' and 'format = %s'%s; "
                             "pass section=NAME" % (path, "no" if not chosen else len(chosen),
                                                   format_name, "".join(" [%s]" % s.name for s in chosen)))
    section = chosen[0]
    if section.outputs_file() is None or "inputs" not in section.settings:
        raise ValueError("%s:%d: section [%s] needs 'kernel = outputs:FILE' and 'inputs = FILE'"
                         % (path, section.first + 1, section.name))
    if section.settings.get("format") != format_name:
        raise ValueError("%s:%d: section [%s] has format %s, not %s"
                         % (path, section.first + 1, section.name,
                            section.settings.get("format", "(none)"), format_name))
    return section


def with_paths(lines, outputs, inputs):
    """Section lines with the kernel and inputs settings replaced."""
    replaced = []
    for line in lines:
        key = line.split("=", 1)[0].strip() if "=" in line and not line.lstrip().startswith("#") else None
        if key == "kernel":
            line = "kernel = outputs:%s" % outputs
        elif key == "inputs":
            line = "inputs = %s" % inputs
        replaced.append(line)
    return replaced

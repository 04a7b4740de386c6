/**
 * A PEP 660 build backend for a project's tree (no setuptools or wheel needed): its editable wheel
 * holds a `.pth` naming the build folder's `src`, as setuptools' editable installs do; `script`
 * names a console script (`name = module:function`), `versionFile` a file the build writes in the
 * tree, as hatch-vcs does.
 */
export function editableBackend(name: string, version: string, extra: { script?: string; versionFile?: string } = {}): string {
  return [
    'import base64, hashlib, os, zipfile',
    `NAME, VERSION = ${JSON.stringify(name)}, ${JSON.stringify(version)}`,
    'INFO = f"{NAME}-{VERSION}.dist-info"',
    'def get_requires_for_build_editable(config_settings=None):',
    '    return []',
    'def build_editable(wheel_directory, config_settings=None, metadata_directory=None):',
    '    wheel = f"{NAME}-{VERSION}-py3-none-any.whl"',
    ...(extra.versionFile ? [`    open(${JSON.stringify(extra.versionFile)}, "w").write(f"VERSION = {VERSION!r}\\n")`] : []),
    '    files = {',
    '        f"{NAME}.pth": os.path.abspath("src") + "\\n",',
    '        f"{INFO}/METADATA": f"Metadata-Version: 2.1\\nName: {NAME}\\nVersion: {VERSION}\\n",',
    '        f"{INFO}/WHEEL": "Wheel-Version: 1.0\\nGenerator: loopgate-tests\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",',
    ...(extra.script ? [`        f"{INFO}/entry_points.txt": "[console_scripts]\\n" + ${JSON.stringify(extra.script)} + "\\n",`] : []),
    '    }',
    '    record = []',
    '    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w") as z:',
    '        for rel, text in files.items():',
    '            data = text.encode()',
    '            z.writestr(rel, data)',
    '            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()',
    '            record.append(f"{rel},sha256={digest},{len(data)}")',
    '        record.append(f"{INFO}/RECORD,,")',
    '        z.writestr(f"{INFO}/RECORD", "\\n".join(record) + "\\n")',
    '    return wheel',
    ''
  ].join('\n')
}

"""The fleet's side of fleet-ansible: builds the .deb from the kiosk binary the guest got, makes
the config bundles, and runs packaging/ansible's example playbook against the guest at each of
its `e2e_host` steps. Everything (bundles, inventory, each run's output and time) stays in
files/host/ for check.py."""
import os
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(REPO / "Tests/e2e/lib"))
from e2e import png  # noqa: E402
from e2e.hoststep import StepFailed  # noqa: E402

METRICS = "/var/lib/prometheus/node-exporter/kiosk.prom"


def bundle(dest, title, icons, edit=lambda text: text):
    """The example config as a bundle: its title, metrics_file set, and the icons of `icons`."""
    dest.mkdir(parents=True)
    text = (REPO / "systemd/kiosk.toml").read_text()
    text = text.replace('title = "Kiosk"', f'title = "{title}"', 1)
    text = text.replace(f'# metrics_file = "{METRICS}"', f'metrics_file = "{METRICS}"', 1)
    # The home screen shows the bundle's own icon files (the example names Adwaita icons there),
    # so that a push that swaps the icons changes what the home screen looks like.
    for name, file in (("multimedia-player-symbolic", "icons/radio.png"), ("preferences-system-symbolic", "icons/settings.png")):
        assert f'icon = "{name}"' in text, f"the example's home screen no longer names {name}"
        text = text.replace(f'icon = "{name}"', f'icon = "{file}"', 1)
    (dest / "kiosk.toml").write_text(edit(text))
    shutil.copytree(icons, dest / "icons", symlinks=True)
    return dest


def inverted_icons(dest):
    """The example's icons with every colour inverted (alpha kept): each icon changes."""
    dest.mkdir(parents=True)
    for f in sorted((REPO / "systemd/icons").glob("*.png")):
        img = png.read(f)
        px = bytearray(img.rgba)
        for i in range(0, len(px), 4):
            px[i], px[i + 1], px[i + 2] = 255 - px[i], 255 - px[i + 1], 255 - px[i + 2]
        png.Image(img.width, img.height, px).save(dest / f.name)
    return dest


def host(h):
    work = h.dir
    r = h.run("build-deb", [REPO / "packaging/build-deb", "--binary", h.payload["kiosk"], "--version", "0.1.0",
                            "--out", h.scratch / "deb"])
    if r.returncode != 0:
        raise StepFailed(f"packaging/build-deb exited {r.returncode} (files/host/build-deb.log)")
    deb = next((h.scratch / "deb").glob("kiosk_*.deb"))
    icons_a = REPO / "systemd/icons"
    icons_b = inverted_icons(work / "icons-b")
    bundles = work / "bundles"
    a = bundle(bundles / "a", "Fleet A", icons_a)
    b = bundle(bundles / "b", "Fleet B", icons_b)
    # Both faults in one bundle (one playbook run: each costs about two minutes under TCG): a
    # missing icon, and an icon that is a dangling symlink. The refusal must name both.
    bad = bundle(bundles / "bad", "Bad", icons_a, lambda t: t.replace("icons/radio.png", "icons/missing.png"))
    (bad / "icons/settings.png").unlink()
    os.symlink("../nowhere.png", bad / "icons/settings.png")
    # What a half-applied push would show, for check.py to know them apart from A and B.
    bundle(bundles / "half-new-text-old-icons", "Fleet B", icons_a)
    bundle(bundles / "half-old-text-new-icons", "Fleet A", icons_b)

    inventory = work / "inventory.ini"
    inventory.write_text(
        "[kiosks]\n"
        f"guest ansible_host=127.0.0.1 ansible_port={h.port} ansible_user=root "
        f"ansible_ssh_private_key_file={h.key} "
        "ansible_ssh_common_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null'\n")
    env = dict(os.environ, ANSIBLE_CONFIG=str(REPO / "packaging/ansible/ansible.cfg"), ANSIBLE_NOCOLOR="1",
               ANSIBLE_FORCE_COLOR="0", ANSIBLE_HOST_KEY_CHECKING="False")

    def play(name, bundle_dir, *extra):
        return h.run(f"ansible-{name}", ["ansible-playbook", "-i", inventory, REPO / "packaging/ansible/playbook.yml",
                                         "-e", f"kiosk_bundle={bundle_dir}", *extra],
                     # Ansible's own log has each line's time: where a run's minutes go.
                     env=dict(env, ANSIBLE_LOG_PATH=str(work / f"ansible-{name}.timed.log")))

    def applied(name, r):
        if r.returncode != 0:
            raise StepFailed(f"the playbook failed at {name} (exit {r.returncode}; files/host/ansible-{name}.log):\n"
                             + "\n".join((r.stdout + r.stderr).splitlines()[-15:]))

    def refused(name, r, *why):
        """Failed, with check-config's words (JSON-quoted in Ansible's output: looked for in pieces)."""
        out = r.stdout + r.stderr
        h.expect(r.returncode != 0, f"{name}: the playbook succeeded with a bad bundle")
        h.expect("refused by kiosk check-config" in out and all(w in out for w in why),
                 f"{name}: no clear refusal naming {why} in files/host/ansible-{name}.log")

    with h.step("install", timeout=600):
        applied("install", play("install", a, "-e", f"kiosk_deb={deb}"))
    with h.step("icons"):
        applied("icons", play("icons", b))
    with h.step("bad"):
        refused("bad", play("bad", bad), "icons/missing.png", "does not exist",
                "icons/settings.png", "is a symlink to", "../nowhere.png", "which does not exist")
    with h.step("again"):
        applied("again", play("again", a))

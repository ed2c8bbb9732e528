import Glibc
import KioskConfiguration
import KioskSystem

/// The files a Kiosk disk image device tells its versions by, all readable by the kiosk's
/// unprivileged user: nothing here needs root, and nothing here writes.
public struct ImageDisk: Sendable {
    /// os-release: `IMAGE_ID=kiosk` marks the image, `IMAGE_VERSION` the running version.
    public var osRelease: String
    /// The boot partition's unified kernel images, one per version (`kiosk_VERSION[+LEFT[-DONE]].efi`).
    public var bootImages: String
    /// One file per version: its last boot check's line (the image's `boot-check` writes them).
    public var bootChecks: String
    /// The kernel command line, whose `root=PARTLABEL=kiosk_VERSION` names the running slot.
    public var kernelCommandLine: String
    public var partitionLabels: String
    /// The update's steps (`state=`, `version=`, `source=`, `message=`, `progress=` lines), written by root.
    public var updateState: String
    /// Where the kiosk asks root for an update (kiosk-update.path watches it): its own runtime folder.
    public var updateRequest: String
    /// Where the kiosk asks root which version a web server offers (kiosk-update-check.path).
    public var offerCheckRequest: String
    /// Root's answer (`source=`, `version=`, `message=`): the version the web server's signed list names.
    public var offeredAnswer: String

    public init(osRelease: String = "/etc/os-release", bootImages: String = "/boot/efi/EFI/Linux",
                bootChecks: String = "/var/lib/kiosk-image/boot-check", kernelCommandLine: String = "/proc/cmdline",
                partitionLabels: String = "/dev/disk/by-partlabel", updateState: String = "/run/kiosk-image/update-state",
                updateRequest: String = "/run/kiosk/update-request", offerCheckRequest: String = "/run/kiosk/update-check",
                offeredAnswer: String = "/run/kiosk-image/offered") {
        self.updateState = updateState
        self.updateRequest = updateRequest
        self.offerCheckRequest = offerCheckRequest
        self.offeredAnswer = offeredAnswer
        self.osRelease = osRelease
        self.bootImages = bootImages
        self.bootChecks = bootChecks
        self.kernelCommandLine = kernelCommandLine
        self.partitionLabels = partitionLabels
    }

    /// The image's layout (packaging/image/build): partition 2 is slot A, 3 is slot B.
    static let slots = [2: "a", 3: "b"]

    /// The device's image state now, with the newest version `offer` holds (a folder, or a web
    /// server as root last checked it); nil when this is not a Kiosk image.
    public func read(offer: String? = nil) -> ImageStatus? {
        guard let release = SmallFile.text(osRelease, limit: 16 << 10) else { return nil }
        let fields = KeyValueLines.fields(release)
        guard fields["IMAGE_ID"] == "kiosk", let running = fields["IMAGE_VERSION"], !running.isEmpty else { return nil }
        let entries = ((try? Directory.names(in: bootImages)) ?? []).compactMap(BootImageName.init)
        var versions = entries.map { entry in
            ImageStatus.Installed(version: entry.version, state: entry.state, triesLeft: entry.triesLeft, triesDone: entry.triesDone,
                                  check: check(of: entry.version))
        }
        versions.sort { ImageVersion.isNewer($0.version, than: $1.version) }
        let trial = entries.first { $0.version == running }.map { $0.triesLeft != nil } ?? false
        let rollback = versions.first { $0.state == .failed && ImageVersion.isNewer($0.version, than: running) }
            .map { ImageStatus.Rollback(from: $0.version, reason: $0.check) }
        return ImageStatus(version: running, slot: slot(), trial: trial, versions: versions, rollback: rollback, update: update(),
                           offered: offer.flatMap(offeredVersion))
    }

    /// The newest version `source` offers: a folder's list read here, a web server's as root's
    /// last check of that same URL found it (nil until one has).
    func offeredVersion(at source: String) -> String? {
        guard UpdateSource.isURL(source) else { return Self.offeredVersion(in: source) }
        guard let text = SmallFile.text(offeredAnswer, limit: 4096) else { return nil }
        let fields = KeyValueLines.fields(text)
        guard fields["source"] == source, let version = fields["version"], BootImageName.isVersion(version) else { return nil }
        return version
    }

    /// The newest version whose kernel image the folder's SHA256SUMS lists (`HASH  kiosk_V.efi`).
    static func offeredVersion(in folder: String) -> String? {
        guard let sums = SmallFile.text(folder + "/SHA256SUMS", limit: 64 << 10) else { return nil }
        var newest: String?
        for line in sums.split(separator: "\n") {
            guard let name = line.split(separator: " ").last.map({ $0.hasPrefix("*") ? $0.dropFirst() : $0 }),
                  let entry = BootImageName(String(name)), entry.triesLeft == nil else { continue }
            if newest.map({ ImageVersion.isNewer(entry.version, than: $0) }) ?? true { newest = entry.version }
        }
        return newest
    }

    /// The last step root wrote; `requested` while a request waits for root to take it.
    private func update() -> ImageStatus.Update? {
        if access(updateRequest, F_OK) == 0 { return ImageStatus.Update(state: .requested) }
        guard let text = SmallFile.text(updateState, limit: 8192) else { return nil }
        let fields = KeyValueLines.fields(text)
        guard let state = fields["state"].flatMap(ImageStatus.Update.State.init(rawValue:)) else { return nil }
        let progress = fields["progress"].flatMap { Int($0) }.map { min(max($0, 0), 100) }
        return ImageStatus.Update(state: state, version: KeyValueLines.nonEmpty(fields["version"]),
                                  source: KeyValueLines.nonEmpty(fields["source"]), message: KeyValueLines.nonEmpty(fields["message"]),
                                  progress: progress)
    }

    private func check(of version: String) -> String? {
        guard BootImageName.isVersion(version),
              let text = SmallFile.text(bootChecks + "/" + version, limit: 512) else { return nil }
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? nil : line
    }

    /// The running root's slot: the partition the command line's `root=PARTLABEL=` names.
    private func slot() -> String? {
        guard let cmdline = SmallFile.text(kernelCommandLine, limit: 4096) else { return nil }
        let prefix = "root=PARTLABEL="
        guard let arg = cmdline.split(whereSeparator: { $0 == " " || $0 == "\n" }).first(where: { $0.hasPrefix(prefix) }) else { return nil }
        let label = arg.dropFirst(prefix.count)
        guard !label.contains("/"), !label.isEmpty else { return nil }
        var target = [CChar](repeating: 0, count: 256)
        let n = readlink(partitionLabels + "/" + label, &target, target.count - 1)
        guard n > 0 else { return nil }
        let device = String(decoding: target[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let number = device.reversed().prefix { $0.isASCII && $0.isNumber }
        return Int(String(number.reversed())).flatMap { Self.slots[$0] }
    }

}

/// `kiosk_VERSION.efi`, or with systemd-boot's counters `kiosk_VERSION+LEFT[-DONE].efi`.
struct BootImageName: Equatable {
    var version: String
    var triesLeft: Int?
    var triesDone: Int?

    init?(_ name: String) {
        guard name.hasPrefix("kiosk_"), name.hasSuffix(".efi") else { return nil }
        let stem = name.dropFirst("kiosk_".count).dropLast(".efi".count)
        if let plus = stem.lastIndex(of: "+") {
            let counters = stem[stem.index(after: plus)...].split(separator: "-", omittingEmptySubsequences: false)
            guard counters.count <= 2, let left = Int(counters[0]), left >= 0 else { return nil }
            let done = counters.count == 2 ? Int(counters[1]) : 0
            guard let done, done >= 0 else { return nil }
            version = String(stem[..<plus])
            triesLeft = left
            triesDone = done
        } else {
            version = String(stem)
        }
        guard Self.isVersion(version) else { return nil }
    }

    /// What `packaging/image/build --version` takes: no path, no counter separator.
    static func isVersion(_ s: String) -> Bool {
        guard let first = s.utf8.first, s.utf8.count <= 30 else { return false }
        let alnum = { (c: UInt8) in (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }
        return alnum(first) && s.utf8.allSatisfy { alnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    var state: ImageStatus.Installed.State {
        guard let triesLeft else { return .good }
        return triesLeft == 0 ? .failed : .trial
    }
}

/// Version order as systemd-boot sorts its entries: runs of digits compare as numbers, other
/// runs as text ("10.0" after "9.1", "2.0" after "2.0-rc1" is not promised: avoid such names).
enum ImageVersion {
    /// True when `a` sorts after `b`.
    static func isNewer(_ a: String, than b: String) -> Bool {
        let x = runs(a), y = runs(b)
        for (l, r) in zip(x, y) where l != r {
            if l.first?.isNumber == true, r.first?.isNumber == true {
                // As numbers, whatever their length: leading zeros dropped, then the longer is larger.
                let ln = l.drop { $0 == "0" }, rn = r.drop { $0 == "0" }
                if ln.count != rn.count { return ln.count > rn.count }
                if ln != rn { return ln > rn }
                continue
            }
            return l > r
        }
        return x.count > y.count
    }

    private static func runs(_ s: String) -> [String] {
        var out: [String] = []
        var current = ""
        var digits = false
        for c in s {
            let d = c.isASCII && c.isNumber
            if !current.isEmpty, d != digits {
                out.append(current)
                current = ""
            }
            digits = d
            current.append(c)
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}

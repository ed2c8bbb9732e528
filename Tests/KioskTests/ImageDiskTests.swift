import Foundation
import Glibc
@testable import Kiosk
import Testing

/// A Kiosk disk image's versions as the kiosk reads them (`ImageDisk`): a folder shaped like the
/// device's files (os-release, the boot partition's kernel images with systemd-boot's counters,
/// the boot checks, the command line and the partition labels), the status document it makes
/// (written and read back), the verdict of `kiosk status`, and the metrics.
@Suite struct ImageDiskTests {
    final class Device {
        let dir: String
        init() {
            var template = Array("/tmp/kiosk-image-test-XXXXXX".utf8CString)
            dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
            for sub in ["EFI/Linux", "checks", "by-partlabel"] {
                try! FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
            }
        }
        deinit { try? FileManager.default.removeItem(atPath: dir) }
        func write(_ name: String, _ text: String) {
            _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(text.utf8))
        }
        func link(_ name: String, to target: String) {
            try! FileManager.default.createSymbolicLink(atPath: dir + "/" + name, withDestinationPath: target)
        }
        var disk: ImageDisk {
            ImageDisk(osRelease: dir + "/os-release", bootImages: dir + "/EFI/Linux", bootChecks: dir + "/checks",
                      kernelCommandLine: dir + "/cmdline", partitionLabels: dir + "/by-partlabel", updateState: dir + "/state",
                      updateRequest: dir + "/update-request", offerCheckRequest: dir + "/update-check", offeredAnswer: dir + "/offered")
        }
        /// A device running `version` from partition `partition`, with these kernel images.
        static func running(_ version: String, partition: Int, images: [String]) -> Device {
            let d = Device()
            d.write("os-release", "PRETTY_NAME=\"Debian GNU/Linux 13 (trixie)\"\nID=debian\nIMAGE_ID=kiosk\nIMAGE_VERSION=\"\(version)\"\n")
            d.write("cmdline", "root=PARTLABEL=kiosk_\(version) rootfstype=erofs ro quiet\n")
            d.link("by-partlabel/kiosk_\(version)", to: "../../vda\(partition)")
            for name in images { d.write("EFI/Linux/" + name, "") }
            return d
        }
    }

    @Test func aFreshImageRunsItsOnlyVersionUncounted() {
        let d = Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        #expect(d.disk.read() == ImageStatus(version: "1.0", slot: "a", trial: false,
                                             versions: [.init(version: "1.0", state: .good)], rollback: nil))
    }

    @Test func aNewVersionOnTrialThenBlessed() {
        let d = Device.running("2.0", partition: 3, images: ["kiosk_1.0.efi", "kiosk_2.0+2-1.efi"])
        let trial = d.disk.read()
        #expect(trial?.slot == "b" && trial?.trial == true && trial?.rollback == nil)
        #expect(trial?.versions.first == .init(version: "2.0", state: .trial, triesLeft: 2, triesDone: 1))
        try? FileManager.default.moveItem(atPath: d.dir + "/EFI/Linux/kiosk_2.0+2-1.efi", toPath: d.dir + "/EFI/Linux/kiosk_2.0.efi")
        d.write("checks/2.0", "good: the kiosk shows its menu (Showing main), up for 10 s without a restart\n")
        let blessed = d.disk.read()
        #expect(blessed?.trial == false)
        #expect(blessed?.versions.map(\.state) == [.good, .good])
        #expect(blessed?.versions.first?.check == "good: the kiosk shows its menu (Showing main), up for 10 s without a restart")
    }

    @Test func aFailedNewerVersionIsARollbackWithItsReason() throws {
        let d = Device.running("2.0", partition: 3, images: ["kiosk_2.0.efi", "kiosk_3.0+0-3.efi"])
        d.write("checks/3.0", "not good: kiosk.service is failed, not active (no first frame)\nsecond line ignored\n")
        let status = try #require(d.disk.read())
        #expect(status.rollback == .init(from: "3.0", reason: "not good: kiosk.service is failed, not active (no first frame)"))
        #expect(status.versions.map(\.version) == ["3.0", "2.0"])
        #expect(status.versions.first?.state == .failed)

        // The status file says it, `kiosk status` reads it back, calls the device unhealthy and says why.
        var doc = StatusReportTests.status()
        doc.image = status
        let folder = StatusReportTests.Folder()
        let report = StatusReport(path: folder.file("s.json", doc.json), isRunning: StatusReportTests.alive)
        #expect(report.status == doc)
        #expect(report.health == .unhealthy)
        #expect(report.problems == ["version 3.0 failed every try and the device went back to 2.0 (not good: kiosk.service is failed, not active (no first frame))"])
        #expect(report.text.contains("image: 2.0, slot b"))
        #expect(report.text.contains("installed: 3.0: failed, tried 3 times"))

        var metrics = KioskMetrics(startTime: 0, configGeneration: 1, configValid: true, screen: "main", displayConnected: true)
        metrics.image = status
        #expect(metrics.exposition.contains("kiosk_image_info{version=\"2.0\",slot=\"b\"} 1\n"))
        #expect(metrics.exposition.contains("kiosk_image_rollback{from=\"3.0\"} 1\n"))
        #expect(metrics.exposition.contains("kiosk_image_trial 0\n"))
    }

    @Test func aFailedOlderVersionOrOneWithoutACheckIsNotMisread() {
        // An older version's failure is no rollback (the device is on the newer one).
        let older = Device.running("3.0", partition: 2, images: ["kiosk_2.0+0-3.efi", "kiosk_3.0.efi"])
        #expect(older.disk.read()?.rollback == nil)
        // A newer version that never reached its check: the rollback has no reason.
        let never = Device.running("2.0", partition: 3, images: ["kiosk_2.0.efi", "kiosk_10.0+0-3.efi"])
        #expect(never.disk.read()?.rollback == .init(from: "10.0", reason: nil))
    }

    @Test func notAnImageOrStrangeFilesGiveNothingOrAreSkipped() {
        let plain = Device()
        plain.write("os-release", "ID=debian\nVERSION_ID=\"13\"\n")
        #expect(plain.disk.read() == nil)
        #expect(Device().disk.read() == nil)  // no os-release at all

        // Names that are not a version's kernel image, and a command line naming a path.
        let d = Device.running("1.0", partition: 2,
                               images: ["kiosk_1.0.efi", "kiosk_.efi", "kiosk_../x.efi", "kiosk_1.1+x.efi", "kiosk_1.2+1-2-3.efi",
                                        "other.efi", "kiosk_1.3+-1.efi", "kiosk_\(String(repeating: "9", count: 40)).efi"])
        d.write("cmdline", "root=PARTLABEL=../../etc ro\n")
        let status = d.disk.read()
        #expect(status?.versions == [.init(version: "1.0", state: .good)])
        #expect(status?.slot == nil)
        // A check file for a version name that could leave the folder is never opened.
        #expect(BootImageName("kiosk_..%2F.efi") == nil)
    }

    @Test func versionsSortAsNumbers() {
        #expect(ImageVersion.isNewer("10.0", than: "9.1"))
        #expect(ImageVersion.isNewer("2.0.1", than: "2.0"))
        #expect(!ImageVersion.isNewer("2.0", than: "2.0"))
        #expect(ImageVersion.isNewer("2026.12.01", than: "2026.11.30"))
        #expect(ImageVersion.isNewer("100000000000000000000001", than: "99999999999999999999999"))
        #expect(ImageVersion.isNewer("1.010", than: "1.9"))
    }

    @Test func theWatchReadsAgainOnlyWhenDue() {
        let d = Device.running("1.0", partition: 2, images: ["kiosk_1.0.efi"])
        let watch = ImageWatch(disk: d.disk)
        #expect(watch.advance(now: 100))
        #expect(watch.nextDeadline == 100 + ImageWatch.interval)
        d.write("EFI/Linux/kiosk_2.0+3.efi", "")
        #expect(!watch.advance(now: 101))  // not due: nothing read
        #expect(watch.status?.versions.count == 1)
        #expect(watch.advance(now: 100 + ImageWatch.interval))
        #expect(watch.status?.versions.first == .init(version: "2.0", state: .trial, triesLeft: 3, triesDone: 0))

        // Not an image: read once, never again.
        let plain = ImageWatch(disk: Device().disk)
        #expect(!plain.advance(now: 0))
        #expect(plain.nextDeadline == nil)
    }
}

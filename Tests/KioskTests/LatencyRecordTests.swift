import Geometry
@testable import Kiosk
import Testing

@Suite struct LatencyRecordTests {
    @Test func countsEverySampleButKeepsOnlyTheNewest() {
        var record = LatencyRecord()
        #expect(record.summary == nil)
        for i in 0..<(LatencyRecord.capacity + 10) { record.add(Double(i) / 1000) }
        #expect(record.count == LatencyRecord.capacity + 10)
        let summary = record.summary ?? ""
        #expect(summary.hasPrefix("\(LatencyRecord.capacity + 10) inputs:"), "\(summary)")
        // The oldest ten (0-9 ms) were replaced: the figures cover 10 ms onwards.
        #expect(summary.contains("max \(Double(LatencyRecord.capacity + 9).formatted2) ms"), "\(summary)")
        #expect(summary.contains("figures over the newest \(LatencyRecord.capacity)"), "\(summary)")
    }
}

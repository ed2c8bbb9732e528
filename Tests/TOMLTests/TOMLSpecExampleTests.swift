import Testing
import TOML

/// The example from the front page of toml.io, read as the spec describes it.
@Suite struct TOMLSpecExampleTests {
    static let example = """
    # This is a TOML document

    title = "TOML Example"

    [owner]
    name = "Tom Preston-Werner"
    dob = 1979-05-27T07:32:00-08:00

    [database]
    enabled = true
    ports = [ 8000, 8001, 8002 ]
    data = [ ["delta", "phi"], [3.14] ]
    temp_targets = { cpu = 79.5, case = 72.0 }

    [servers]

    [servers.alpha]
    ip = "10.0.0.1"
    role = "frontend"

    [servers.beta]
    ip = "10.0.0.2"
    role = "backend"
    """

    @Test func frontPageExample() throws {
        let t = try TOMLTable(parsing: Self.example)
        #expect(t.keys == ["title", "owner", "database", "servers"])
        #expect(t["title"]?.string == "TOML Example")
        let dob = try #require(t["owner"]?.table?["dob"]?.dateTime)
        #expect(dob.date == TOMLDateTime.Date(year: 1979, month: 5, day: 27))
        #expect(dob.offsetMinutes == -480 && dob.description == "1979-05-27T07:32:00-08:00")
        let database = try #require(t["database"]?.table)
        #expect(database["enabled"]?.bool == true)
        #expect(database["ports"]?.array?.compactMap(\.integer) == [8000, 8001, 8002])
        #expect(database["data"]?.array?[0].array?.compactMap(\.string) == ["delta", "phi"])
        #expect(database["data"]?.array?[1].array?[0].float == 3.14)
        #expect(database["temp_targets"]?.table?["case"]?.float == 72)
        let servers = try #require(t["servers"]?.table)
        #expect(servers.keys == ["alpha", "beta"])
        #expect(servers["beta"]?.table?["role"]?.string == "backend")
        #expect(servers["beta"]?.position == TOMLPosition(line: 21, column: 1))
        #expect(servers["beta"]?.table?["ip"]?.position == TOMLPosition(line: 22, column: 6))
        #expect(t["owner"]?.table?["dob"]?.position == TOMLPosition(line: 7, column: 7))
    }

    @Test func specSnippetsThatAreValid() throws {
        // Dotted keys defining tables out of order, as the spec allows (discouraged, valid).
        let t = try TOMLTable(parsing: """
        apple.type = "fruit"
        orange.type = "fruit"
        apple.skin = "thin"
        orange.skin = "thick"
        3.14159 = "pi"
        """)
        #expect(t["apple"]?.table?.keys == ["type", "skin"])
        #expect(t["3"]?.table?["14159"]?.string == "pi")
        // Whitespace around dots, and a table header after its sub-table.
        let u = try TOMLTable(parsing: "[x.y.z.w]\n[x]\n[ j . \"ʞ\" . 'l' ]\n")
        #expect(u["j"]?.table?["ʞ"]?.table?["l"]?.table?.isEmpty == true)
    }
}

import Raster

extension ThemePalette {
    /// The selection a theme gets when its author set some of its colours (`row`, `text`,
    /// `highlight`) but not the selection's (`selected_row`, `selected_text`): made from the
    /// author's colours, so that a brown-and-orange menu is not selected in a preset's blue.
    /// `own` holds the `[theme]` keys the author set; what they left out and nothing here
    /// derives stays the preset's.
    ///
    /// - selected plate: the author's `highlight`; without one their `row` lifted towards their
    ///   `text` (a third of the way); with only `text`, the text colour (inverse video).
    /// - selected label: the first of the author's `text`, `row`, then white, black, that reaches
    ///   WCAG AA (4.5:1) on that plate, else whichever contrasts most.
    /// - outline (`highlight`, when not set): the selected plate's colour, so no second colour
    ///   is drawn; pressed plate (`pressed_row`, when not set): the row lifted a fifth of the way.
    public mutating func deriveSelection(own: Set<String>) {
        let authorRow = own.contains("row"), authorText = own.contains("text"), authorHighlight = own.contains("highlight")
        guard authorRow || authorText || authorHighlight else { return }
        let opaqueRow = row.composited(over: .black)
        if !own.contains("selected_row") {
            if authorHighlight {
                selectedRow = highlight
            } else if authorRow {
                selectedRow = text.composited(over: opaqueRow, opacity: 1.0 / 3)
            } else {
                selectedRow = text
            }
            selectedRow.alpha = 255
        }
        if !own.contains("selected_text") {
            var candidates: [Color] = []
            if authorText { candidates.append(text) }
            if authorRow { candidates.append(opaqueRow) }
            candidates += [.white, .black]
            let plate = selectedRow.composited(over: .black)
            let ratios = candidates.map { Color.contrastRatio($0.composited(over: plate), plate) }
            let index = ratios.firstIndex { $0 >= 4.5 } ?? ratios.indices.max { ratios[$0] < ratios[$1] }!
            selectedText = candidates[index]
        }
        if !authorHighlight { highlight = selectedRow }
        if authorRow, !own.contains("pressed_row") {
            pressedRow = text.composited(over: opaqueRow, opacity: 0.2)
        }
    }
}

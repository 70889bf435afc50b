package io.ramjet.bench.report;

import io.ramjet.bench.result.Results;
import io.ramjet.bench.result.Row;
import java.util.Locale;
import java.util.OptionalDouble;

/** How the reports print a ratio: Ramjet's figure over the peer's, two decimals and an x. */
final class Ratios {

    private Ratios() {
    }

    static String format(Results results, Row row, String peer) {
        OptionalDouble r = results.ratio(row, peer);
        return r.isPresent() ? String.format(Locale.ROOT, "%.2fx", r.getAsDouble()) : "-";
    }

    static String header(String peer) {
        return Results.RAMJET + "/" + peer;
    }
}

package io.ramjet.cli;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.ramjet.protocol.command.BrokerInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A row of a listing with the broker it came from: a destination is split over the brokers
 * that hold it, each answering for its own part. In JSON, the row's fields with a "broker" one.
 */
public record OnBroker<T>(String broker, @JsonUnwrapped T row) {

    /** Asks every broker the NameServers know and gathers their rows, brokers by name. */
    public static <T> List<OnBroker<T>> gather(AdminClient admin, Function<BrokerInfo, List<T>> ask) {
        List<OnBroker<T>> rows = new ArrayList<>();
        for (BrokerInfo broker : admin.brokers()) {
            for (T row : ask.apply(broker)) {
                rows.add(new OnBroker<>(broker.brokerName(), row));
            }
        }
        return rows;
    }
}

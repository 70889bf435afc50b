package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ramjet.samples.SelectorFilter.Parcel;
import java.util.List;
import org.junit.jupiter.api.Test;

class SelectorFilterTest extends EmbeddedBrokerTest {

    private static final List<Parcel> PARCELS = List.of(
            new Parcel("red", 5), new Parcel("blue", 10), new Parcel("red", 15), new Parcel("green", 20),
            new Parcel("red", 21), new Parcel("blue", 9), new Parcel("RED", 12));

    @Test
    void eachSubscriberGetsExactlyWhatItsSelectorMatchesInOrder() throws Exception {
        SelectorFilter.Received received = SelectorFilter.run(factory, "selector.parcels", PARCELS);

        assertEquals(List.of("parcel 1 red 5kg", "parcel 3 red 15kg", "parcel 5 red 21kg"), received.red());
        assertEquals(List.of("parcel 2 blue 10kg", "parcel 3 red 15kg", "parcel 4 green 20kg", "parcel 7 RED 12kg"),
                received.heavy());
    }

    @Test
    void mainRunsAgainstTheGivenUrl() throws Exception {
        SelectorFilter.main(new String[] {url()});
    }
}

package io.ramjet.server.broker.console;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonTest {

    enum Kind { QUEUE }

    record Row(String name, Kind kind, long count, boolean temporary, Double rate, List<Integer> queues) {
    }

    @Test
    void aRecordIsAnObjectOfItsComponentsInOrder() {
        assertEquals("{\"name\":\"orders\",\"kind\":\"QUEUE\",\"count\":25,\"temporary\":false,\"rate\":1.5,"
                + "\"queues\":[0,1]}", Json.write(new Row("orders", Kind.QUEUE, 25, false, 1.5, List.of(0, 1))));
    }

    @Test
    void stringsAreEscapedSoThatNoAnswerCanCloseAScriptElement() {
        assertEquals("\"a\\\"b\\\\c\\nd\\u0001\\u003c/script\\u003e\"", Json.write("a\"b\\c\nd\u0001</script>"));
    }

    @Test
    void mapsNullsAndNonFiniteNumbers() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("none", null);
        map.put("nan", Double.NaN);
        map.put("purged", 3L);
        assertEquals("{\"none\":null,\"nan\":null,\"purged\":3}", Json.write(map));
    }

    @Test
    void anObjectWithNoJsonFormIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
    }
}

package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.samples.OrderGroups.Handled;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class OrderGroupsTest extends EmbeddedBrokerTest {

    @Test
    void eachCustomersStepsAreHandledInOrderByOneListenerWhileListenersShareTheCustomers() throws Exception {
        List<Handled> handled = OrderGroups.run(factory, "groups.orders", 12, 3);

        Map<String, List<String>> steps = new TreeMap<>();
        Map<String, Set<String>> listeners = new TreeMap<>();
        for (Handled h : handled) {
            steps.computeIfAbsent(h.customer(), c -> new ArrayList<>()).add(h.step());
            listeners.computeIfAbsent(h.customer(), c -> new HashSet<>()).add(h.listener());
        }
        assertEquals(12, steps.size());
        steps.forEach((customer, s) -> assertEquals(OrderGroups.STEPS, s, customer));
        listeners.forEach((customer, l) -> assertEquals(1, l.size(), customer + " handled by " + l));
        Set<String> busy = new HashSet<>();
        listeners.values().forEach(busy::addAll);
        assertTrue(busy.size() > 1, "customers are shared by the listeners: " + busy);
        assertQueueEmpty("groups.orders");
    }

    @Test
    void mainRunsAgainstTheGivenUrl() throws Exception {
        OrderGroups.main(new String[] {url()});
    }
}

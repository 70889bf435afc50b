package io.ramjet.provider.jms;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** Another provider's TextMessage, as a proxy: setters remember their value, getters return it. */
final class ForeignText implements InvocationHandler {

    private final String text;
    private final Map<String, Object> headers = new HashMap<>();

    ForeignText(String text) {
        this.text = text;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
        String name = method.getName();
        if (name.equals("getText")) {
            return text;
        }
        if (name.equals("getPropertyNames")) {
            return Collections.emptyEnumeration();
        }
        if (name.startsWith("set") && args != null && args.length == 1) {
            headers.put(name.substring(3), args[0]);
            return null;
        }
        if (name.startsWith("get") && (args == null || args.length == 0)) {
            Object value = headers.get(name.substring(3));
            if (value != null) {
                return value;
            }
            Class<?> type = method.getReturnType();
            if (type == int.class) {
                return name.equals("getJMSDeliveryMode") ? 2 : 4;
            }
            if (type == long.class) {
                return 0L;
            }
            if (type == boolean.class) {
                return false;
            }
            return null;
        }
        if (name.equals("hashCode")) {
            return System.identityHashCode(proxy);
        }
        if (name.equals("equals")) {
            return proxy == args[0];
        }
        return null;
    }
}

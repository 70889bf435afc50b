package io.ramjet.provider.jndi;

import java.util.Hashtable;
import java.util.Iterator;
import java.util.Map;
import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.Context;
import javax.naming.Name;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NameParser;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.OperationNotSupportedException;

/**
 * A flat, immutable JNDI context of the objects the initial context factory built, where
 * {@code dynamicQueues/NAME} and {@code dynamicTopics/NAME} also name destinations. Thread-safe.
 */
final class ReadOnlyContext implements Context {

    private final Hashtable<Object, Object> environment;
    private final Map<String, Object> bindings;

    ReadOnlyContext(Hashtable<Object, Object> environment, Map<String, Object> bindings) {
        this.environment = environment;
        this.bindings = Map.copyOf(bindings);
    }

    @Override
    public Object lookup(String name) throws NamingException {
        if (name.isEmpty()) {
            return this;
        }
        Object bound = bindings.get(name);
        if (bound != null) {
            return bound;
        }
        return DynamicDestinations.lookup(name).orElseThrow(() -> new NameNotFoundException(name + " is not bound"));
    }

    @Override
    public Object lookup(Name name) throws NamingException {
        return lookup(name.toString());
    }

    @Override
    public Object lookupLink(String name) throws NamingException {
        return lookup(name);
    }

    @Override
    public Object lookupLink(Name name) throws NamingException {
        return lookup(name);
    }

    @Override
    public NamingEnumeration<NameClassPair> list(String name) throws NamingException {
        checkRoot(name);
        return new Enumeration<>(bindings.entrySet().stream()
                .map(e -> new NameClassPair(e.getKey(), e.getValue().getClass().getName())).iterator());
    }

    @Override
    public NamingEnumeration<NameClassPair> list(Name name) throws NamingException {
        return list(name.toString());
    }

    @Override
    public NamingEnumeration<Binding> listBindings(String name) throws NamingException {
        checkRoot(name);
        return new Enumeration<>(bindings.entrySet().stream()
                .map(e -> new Binding(e.getKey(), e.getValue())).iterator());
    }

    @Override
    public NamingEnumeration<Binding> listBindings(Name name) throws NamingException {
        return listBindings(name.toString());
    }

    private static void checkRoot(String name) throws NameNotFoundException {
        if (!name.isEmpty()) {
            throw new NameNotFoundException(name + " is not a context");
        }
    }

    @Override
    public NameParser getNameParser(String name) {
        return CompositeName::new;
    }

    @Override
    public NameParser getNameParser(Name name) {
        return CompositeName::new;
    }

    @Override
    public Name composeName(Name name, Name prefix) throws NamingException {
        return ((Name) prefix.clone()).addAll(name);
    }

    @Override
    public String composeName(String name, String prefix) {
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    @Override
    public Hashtable<?, ?> getEnvironment() {
        return new Hashtable<>(environment);
    }

    @Override
    public String getNameInNamespace() {
        return "";
    }

    @Override
    public void close() {
    }

    // ---- read-only

    @Override public void bind(Name name, Object obj) throws NamingException { throw readOnly(); }
    @Override public void bind(String name, Object obj) throws NamingException { throw readOnly(); }
    @Override public void rebind(Name name, Object obj) throws NamingException { throw readOnly(); }
    @Override public void rebind(String name, Object obj) throws NamingException { throw readOnly(); }
    @Override public void unbind(Name name) throws NamingException { throw readOnly(); }
    @Override public void unbind(String name) throws NamingException { throw readOnly(); }
    @Override public void rename(Name oldName, Name newName) throws NamingException { throw readOnly(); }
    @Override public void rename(String oldName, String newName) throws NamingException { throw readOnly(); }
    @Override public void destroySubcontext(Name name) throws NamingException { throw readOnly(); }
    @Override public void destroySubcontext(String name) throws NamingException { throw readOnly(); }
    @Override public Context createSubcontext(Name name) throws NamingException { throw readOnly(); }
    @Override public Context createSubcontext(String name) throws NamingException { throw readOnly(); }
    @Override public Object addToEnvironment(String propName, Object propVal) throws NamingException { throw readOnly(); }
    @Override public Object removeFromEnvironment(String propName) throws NamingException { throw readOnly(); }

    private static OperationNotSupportedException readOnly() {
        return new OperationNotSupportedException("the Ramjet JNDI context is read-only");
    }

    private static final class Enumeration<T> implements NamingEnumeration<T> {
        private final Iterator<T> items;

        Enumeration(Iterator<T> items) {
            this.items = items;
        }

        @Override public T next() { return items.next(); }
        @Override public boolean hasMore() { return items.hasNext(); }
        @Override public boolean hasMoreElements() { return items.hasNext(); }
        @Override public T nextElement() { return items.next(); }
        @Override public void close() { }
    }
}

package io.memogate.proxy.admission;

/** The protocol moment at which a statement asks for admission (DESIGN.md, "Admission points"). */
public enum AdmissionPoint {
    /** A simple-protocol query string, possibly holding several statements. */
    SIMPLE_QUERY,
    /** An extended-protocol Bind: the server plans the prepared statement now. */
    BIND
}

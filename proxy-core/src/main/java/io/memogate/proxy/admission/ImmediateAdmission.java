package io.memogate.proxy.admission;

/** Admits every statement at once, holding nothing: the proxy as a plain relay, with gateways off. */
public final class ImmediateAdmission implements AdmissionHook {

    @Override
    public Admission admit(StatementRequest request) {
        return Admission.IMMEDIATE;
    }

    /** Gateways off: the text of each statement (a String per Query and Bind) would be made for nobody. */
    @Override
    public boolean readsStatements() {
        return false;
    }
}

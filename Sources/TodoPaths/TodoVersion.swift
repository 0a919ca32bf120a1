/// The version of todod and todoctl.
public enum TodoVersion {
    public static let current = "0.1.0"
}

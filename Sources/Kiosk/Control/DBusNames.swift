/// The control API's names on the system bus: what `busctl`, `kiosk ctl` and the bus policy
/// file (packaging/kiosk-dbus.conf) name.
public enum DBusNames {
    public static let service = "org.kiosk.Kiosk1"
    public static let path = "/org/kiosk/Kiosk1"
    public static let interface = "org.kiosk.Kiosk1"
    /// Error names: `org.kiosk.Kiosk1.Error.` + `ControlError.name`.
    public static let errorPrefix = "org.kiosk.Kiosk1.Error."

    /// The interface as `busctl introspect` shows it.
    static let introspection = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
         <interface name="org.freedesktop.DBus.Introspectable">
          <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
         </interface>
         <interface name="org.freedesktop.DBus.Peer">
          <method name="Ping"/>
          <method name="GetMachineId"><arg name="id" type="s" direction="out"/></method>
         </interface>
         <interface name="\(interface)">
          <method name="ShowScreen"><arg name="name" type="s" direction="in"/></method>
          <method name="Notify">
           <arg name="text" type="s" direction="in"/>
           <arg name="seconds" type="d" direction="in"/>
           <arg name="level" type="s" direction="in"/>
          </method>
          <method name="SetValue"><arg name="id" type="s" direction="in"/><arg name="text" type="s" direction="in"/></method>
          <method name="SetToggle"><arg name="id" type="s" direction="in"/><arg name="on" type="b" direction="in"/></method>
          <method name="Press"><arg name="id" type="s" direction="in"/></method>
          <method name="GoHome"/>
          <method name="GetState">
           <arg name="screen" type="s" direction="out"/>
           <arg name="selection" type="i" direction="out"/>
           <arg name="selected_label" type="s" direction="out"/>
           <arg name="display_on" type="b" direction="out"/>
           <arg name="generation" type="u" direction="out"/>
           <arg name="values" type="a(sssb)" direction="out"/>
          </method>
          <method name="Update">
           <arg name="source" type="s" direction="in"/>
           <arg name="reboot" type="b" direction="in"/>
           <arg name="force" type="b" direction="in"/>
          </method>
          <method name="GetImage">
           <arg name="version" type="s" direction="out"/>
           <arg name="slot" type="s" direction="out"/>
           <arg name="trial" type="b" direction="out"/>
           <arg name="update_state" type="s" direction="out"/>
           <arg name="update_version" type="s" direction="out"/>
           <arg name="update_message" type="s" direction="out"/>
           <arg name="rollback_from" type="s" direction="out"/>
           <arg name="rollback_reason" type="s" direction="out"/>
           <arg name="update_progress" type="i" direction="out"/>
          </method>
          <signal name="ScreenChanged"><arg name="screen" type="s"/></signal>
          <signal name="SelectionChanged"><arg name="index" type="i"/><arg name="label" type="s"/></signal>
          <signal name="ItemActivated"><arg name="id" type="s"/><arg name="label" type="s"/></signal>
          <signal name="ToggleRequested"><arg name="id" type="s"/><arg name="on" type="b"/></signal>
          <signal name="UpdateChanged"><arg name="state" type="s"/><arg name="version" type="s"/><arg name="message" type="s"/><arg name="progress" type="i"/></signal>
         </interface>
        </node>

        """
}

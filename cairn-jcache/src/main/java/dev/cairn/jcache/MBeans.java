package dev.cairn.jcache;

import java.lang.management.ManagementFactory;
import javax.cache.CacheException;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanRegistrationException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.NotCompliantMBeanException;
import javax.management.ObjectName;

/**
 * Registers a cache's JSR-107 MBeans on the platform MBean server, under {@code
 * javax.cache:type=CacheConfiguration|CacheStatistics,CacheManager=URI,Cache=NAME}, with the URI
 * and name made safe for an object name ({@code ,:=*?} and line ends become {@code .}).
 *
 * <p>Thread-safety: stateless.
 */
final class MBeans {
  static final String CONFIGURATION = "CacheConfiguration";
  static final String STATISTICS = "CacheStatistics";

  private MBeans() {}

  static ObjectName name(String type, String managerUri, String cacheName) {
    try {
      return new ObjectName(
          "javax.cache:type="
              + type
              + ",CacheManager="
              + sanitize(managerUri)
              + ",Cache="
              + sanitize(cacheName));
    } catch (MalformedObjectNameException e) {
      throw new CacheException("cannot name the MBean of cache " + cacheName, e);
    }
  }

  static String sanitize(String s) {
    return s == null ? "" : s.replaceAll("[,:=*?\\n\\r\"]", ".");
  }

  static void register(Object bean, ObjectName name) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      if (!server.isRegistered(name)) {
        server.registerMBean(bean, name);
      }
    } catch (InstanceAlreadyExistsException e) {
      // registered meanwhile by another thread: the same cache
    } catch (MBeanRegistrationException | NotCompliantMBeanException e) {
      throw new CacheException("cannot register MBean " + name, e);
    }
  }

  static void unregister(ObjectName name) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      if (server.isRegistered(name)) {
        server.unregisterMBean(name);
      }
    } catch (InstanceNotFoundException e) {
      // gone meanwhile
    } catch (MBeanRegistrationException e) {
      throw new CacheException("cannot unregister MBean " + name, e);
    }
  }
}

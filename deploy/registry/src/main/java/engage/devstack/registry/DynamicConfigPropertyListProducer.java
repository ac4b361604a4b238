package engage.devstack.registry;

import io.apicurio.common.apps.config.DynamicConfigPropertyList;
import java.util.List;
import javax.enterprise.context.ApplicationScoped;
import javax.enterprise.inject.Produces;

/**
 * Stands in for the build step of apicurio-common-app-components-config-index, whose deployment
 * module is not on Maven Central (see pom.xml): no setting of this registry is editable at run time.
 */
public class DynamicConfigPropertyListProducer {
  @Produces
  @ApplicationScoped
  DynamicConfigPropertyList dynamicConfigPropertyList() {
    return new DynamicConfigPropertyList(List.of());
  }
}

package io.schedext.kube;

import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.ConfigOverride;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Decodes a {@link Pod} from JSON into fabric8's model field by field, to the very object the
 * mapper's own deserializers build. Pods are the objects the extender decodes most (two watch
 * events and a filter call per scheduled pod), and Jackson's general bean deserializer spends most
 * of its time on what generality costs: a reflective setter call through a shared call site per
 * field and a property lookup per name, none of which the optimising compiler can inline.
 *
 * <p>The fields pods carry most (metadata, containers with their resources and ports, tolerations,
 * the status' phase, conditions and container resources, and every plain value of the spec) are
 * read here; security contexts are made empty and their fields set one by one through the mapper's
 * properties, as its bean deserializer does. A field it does not read itself, and any value of an
 * unexpected form (a number as a string, a {@code null} the mapper would not simply set), is handed
 * to the mapper's own property deserializer for that field, which sets it exactly as a whole decode
 * would (the mapper's coercions and fabric8's handling of mismatched values included); the fields
 * {@link UnreadFields} skips are skipped. Where even that cannot reproduce the mapper (a field the
 * model does not know, whose value the mapper would keep as an additional property; a map or list
 * with an element of another form) it throws {@link Unsupported}, and the caller decodes the pod
 * with the mapper instead. Any other exception is the parser's or the mapper's own. Thread-safe.
 */
public final class PodDecoder {

  /**
   * This decoder cannot decode the text exactly as the mapper would; the caller decodes it with the
   * mapper instead. Carries no stack trace: it is control flow.
   */
  public static final class Unsupported extends IOException {
    private static final long serialVersionUID = 1L;

    private Unsupported(String what) {
      super(what);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  private final ObjectMapper mapper;
  private final ConcurrentHashMap<Class<?>, BeanDeserializerBase> beans = new ConcurrentHashMap<>();

  /** Whether the mapper sets a JSON null as null, as it does unless configured otherwise. */
  private final boolean nullsSet;

  /**
   * A decoder building what {@code mapper} builds. The mapper must skip {@link UnreadFields} and
   * decode quantities as {@link QuantityText} does, as this decoder does.
   *
   * @throws IllegalArgumentException when it does not
   */
  public PodDecoder(ObjectMapper mapper) {
    if (!UnreadFields.skippedIn(mapper) || !QuantityText.usedIn(mapper)) {
      throw new IllegalArgumentException(
          "the mapper must skip UnreadFields and decode quantities with QuantityText");
    }
    this.mapper = mapper;
    this.nullsSet = nullsSet(mapper.getDeserializationConfig());
  }

  /**
   * Whether {@code config} sets a JSON null into a string property as null: no handling of nulls
   * configured for every property or for strings (fabric8's model declares none of its own).
   */
  private static boolean nullsSet(DeserializationConfig config) {
    Nulls all = config.getDefaultSetterInfo().getValueNulls();
    ConfigOverride strings = config.findConfigOverride(String.class);
    Nulls forStrings =
        strings == null || strings.getSetterInfo() == null
            ? Nulls.DEFAULT
            : strings.getSetterInfo().getValueNulls();
    return (all == Nulls.DEFAULT || all == Nulls.SET)
        && (forStrings == Nulls.DEFAULT || forStrings == Nulls.SET);
  }

  /**
   * Decodes the pod whose {@code START_OBJECT} is the current token of {@code p}, leaving {@code p}
   * at its {@code END_OBJECT}. Fields the decoder does not read itself are set through {@code
   * ctxt}, the context of the read {@code p} belongs to (null: one is made when needed).
   *
   * @throws Unsupported when the pod is to be decoded by the mapper instead
   */
  public Pod decode(JsonParser p, DeserializationContext ctxt) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new Unsupported("not an object");
    }
    Pod pod = new Pod();
    new Run(p, ctxt).pod(pod);
    return pod;
  }

  /**
   * Decodes a pod whose {@code apiVersion} and {@code kind} were read already, as they are the
   * first two fields of an object the API server writes: {@code p} is at the value of the second,
   * and is left at the object's {@code END_OBJECT}.
   *
   * @throws Unsupported when the pod is to be decoded by the mapper instead
   */
  public Pod decodeRest(JsonParser p, String apiVersion, String kind) throws IOException {
    Pod pod = new Pod();
    pod.setApiVersion(apiVersion);
    pod.setKind(kind);
    new Run(p, null).pod(pod);
    return pod;
  }

  /** The mapper's bean deserializer of {@code type}. */
  private BeanDeserializerBase bean(Class<?> type, DeserializationContext ctxt) throws IOException {
    BeanDeserializerBase d = beans.get(type);
    if (d == null) {
      JsonDeserializer<Object> found = ctxt.findRootValueDeserializer(ctxt.constructType(type));
      if (!(found instanceof BeanDeserializerBase b)) {
        throw new Unsupported("no bean deserializer for " + type.getName());
      }
      beans.putIfAbsent(type, b);
      d = b;
    }
    return d;
  }

  /**
   * Reads one element object of a list into a new model object; the readers are methods of {@link
   * Run} taken unbound, so no reader is allocated per list.
   */
  private interface Element<T> {
    T read(Run run) throws IOException;
  }

  /**
   * Thrown by a field's reader, before it reads anything, when the value at hand is not of the form
   * it takes: the field's loop then has the mapper set that field. Never leaves {@link Run}.
   */
  private static final class ToMapper extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ToMapper() {
      super(null, null, false, false);
    }
  }

  private static final ToMapper TO_MAPPER = new ToMapper();

  /**
   * One pod's decoding: the parser and, once a field needs the mapper, a context. Each object's
   * loop reads its fields with the readers below; a reader meeting a value of another form throws
   * {@link ToMapper} before reading anything, and the loop hands that field to the mapper.
   */
  private final class Run {

    private final JsonParser p;
    private DeserializationContext ctxt;

    Run(JsonParser p, DeserializationContext ctxt) {
      this.p = p;
      this.ctxt = ctxt;
    }

    /** Sets field {@code name} of {@code bean} (its value the current token) as the mapper does. */
    private void other(Object bean, String name) throws IOException {
      if (ctxt == null) {
        ctxt =
            ((DefaultDeserializationContext) mapper.getDeserializationContext())
                .createInstance(mapper.getDeserializationConfig(), p, mapper.getInjectableValues());
      }
      SettableBeanProperty property = bean(bean.getClass(), ctxt).findProperty(name);
      if (property == null) {
        throw new Unsupported("no property " + name + " in " + bean.getClass().getSimpleName());
      }
      property.deserializeAndSet(p, ctxt, bean);
    }

    /** The next field's name, its value then the current token; null at the object's end. */
    private String next() throws IOException {
      JsonToken t = p.nextToken();
      if (t == JsonToken.END_OBJECT) {
        return null;
      }
      if (t != JsonToken.FIELD_NAME) {
        throw new Unsupported("expected a field name, found " + t);
      }
      String name = p.currentName();
      p.nextToken();
      return name;
    }

    /** Checks that the value at hand starts with {@code t}. */
    private void expect(JsonToken t) {
      if (p.currentToken() != t) {
        throw TO_MAPPER;
      }
    }

    /** A string, or a null the mapper sets as null. */
    private String str() throws IOException {
      JsonToken t = p.currentToken();
      if (t == JsonToken.VALUE_STRING) {
        return p.getText();
      }
      if (t == JsonToken.VALUE_NULL && nullsSet) {
        return null;
      }
      throw TO_MAPPER;
    }

    private Integer intValue() throws IOException {
      if (p.currentToken() != JsonToken.VALUE_NUMBER_INT
          || p.getNumberType() != JsonParser.NumberType.INT) {
        throw TO_MAPPER;
      }
      return p.getIntValue();
    }

    private Long longValue() throws IOException {
      if (p.currentToken() != JsonToken.VALUE_NUMBER_INT
          || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
        throw TO_MAPPER;
      }
      return p.getLongValue();
    }

    private Boolean bool() {
      JsonToken t = p.currentToken();
      if (t == JsonToken.VALUE_TRUE) {
        return Boolean.TRUE;
      }
      if (t == JsonToken.VALUE_FALSE) {
        return Boolean.FALSE;
      }
      throw TO_MAPPER;
    }

    /** A map of strings. */
    private Map<String, String> strings() throws IOException {
      return textMap(String::valueOf);
    }

    /** A map of quantities written as strings. */
    private Map<String, Quantity> quantities() throws IOException {
      return textMap(Quantity::new);
    }

    /** A map whose values are all strings, each made a value by {@code of}. */
    private <V> Map<String, V> textMap(Function<String, V> of) throws IOException {
      expect(JsonToken.START_OBJECT);
      Map<String, V> m = new LinkedHashMap<>();
      for (String k = next(); k != null; k = next()) {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
          throw new Unsupported("a map value " + p.currentToken());
        }
        m.put(k, of.apply(p.getText()));
      }
      return m;
    }

    /** A list of strings. */
    private List<String> stringList() throws IOException {
      expect(JsonToken.START_ARRAY);
      List<String> l = new ArrayList<>();
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        if (t != JsonToken.VALUE_STRING) {
          throw new Unsupported("a list element " + t);
        }
        l.add(p.getText());
      }
      return l;
    }

    /** A list of objects, each read by {@code element} from its START_OBJECT. */
    private <T> List<T> list(Element<T> element) throws IOException {
      expect(JsonToken.START_ARRAY);
      List<T> l = new ArrayList<>();
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        if (t != JsonToken.START_OBJECT) {
          throw new Unsupported("a list element " + t);
        }
        l.add(element.read(this));
      }
      return l;
    }

    /**
     * {@code bean} with every field of the object at hand set as the mapper's bean deserializer
     * sets them: created empty, then each property in turn.
     */
    private <T> T viaProperties(T bean) throws IOException {
      expect(JsonToken.START_OBJECT);
      for (String f = next(); f != null; f = next()) {
        other(bean, f);
      }
      return bean;
    }

    void pod(Pod pod) throws IOException {
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "metadata" -> pod.setMetadata(meta());
            case "spec" -> pod.setSpec(spec());
            case "status" -> pod.setStatus(status());
            case "apiVersion" -> pod.setApiVersion(str());
            case "kind" -> pod.setKind(str());
            default -> other(pod, f);
          }
        } catch (ToMapper e) {
          other(pod, f);
        }
      }
    }

    private ObjectMeta meta() throws IOException {
      expect(JsonToken.START_OBJECT);
      ObjectMeta m = new ObjectMeta();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "name" -> m.setName(str());
            case "namespace" -> m.setNamespace(str());
            case "uid" -> m.setUid(str());
            case "resourceVersion" -> m.setResourceVersion(str());
            case "generateName" -> m.setGenerateName(str());
            case "creationTimestamp" -> m.setCreationTimestamp(str());
            case "deletionTimestamp" -> m.setDeletionTimestamp(str());
            case "generation" -> m.setGeneration(longValue());
            case "deletionGracePeriodSeconds" -> m.setDeletionGracePeriodSeconds(longValue());
            case "labels" -> m.setLabels(strings());
            case "annotations" -> m.setAnnotations(strings());
            case "finalizers" -> m.setFinalizers(stringList());
            case "ownerReferences" -> m.setOwnerReferences(list(Run::owner));
            case UnreadFields.META -> p.skipChildren();
            default -> other(m, f);
          }
        } catch (ToMapper e) {
          other(m, f);
        }
      }
      return m;
    }

    private OwnerReference owner() throws IOException {
      OwnerReference o = new OwnerReference();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "apiVersion" -> o.setApiVersion(str());
            case "kind" -> o.setKind(str());
            case "name" -> o.setName(str());
            case "uid" -> o.setUid(str());
            case "controller" -> o.setController(bool());
            case "blockOwnerDeletion" -> o.setBlockOwnerDeletion(bool());
            default -> other(o, f);
          }
        } catch (ToMapper e) {
          other(o, f);
        }
      }
      return o;
    }

    private PodSpec spec() throws IOException {
      expect(JsonToken.START_OBJECT);
      PodSpec s = new PodSpec();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "containers" -> s.setContainers(list(Run::container));
            case "initContainers" -> s.setInitContainers(list(Run::container));
            case "tolerations" -> s.setTolerations(list(Run::toleration));
            case "nodeSelector" -> s.setNodeSelector(strings());
            case "overhead" -> s.setOverhead(quantities());
            case "restartPolicy" -> s.setRestartPolicy(str());
            case "dnsPolicy" -> s.setDnsPolicy(str());
            case "schedulerName" -> s.setSchedulerName(str());
            case "serviceAccountName" -> s.setServiceAccountName(str());
            case "serviceAccount" -> s.setServiceAccount(str());
            case "nodeName" -> s.setNodeName(str());
            case "priorityClassName" -> s.setPriorityClassName(str());
            case "preemptionPolicy" -> s.setPreemptionPolicy(str());
            case "priority" -> s.setPriority(intValue());
            case "terminationGracePeriodSeconds" -> s.setTerminationGracePeriodSeconds(longValue());
            case "enableServiceLinks" -> s.setEnableServiceLinks(bool());
            case "hostNetwork" -> s.setHostNetwork(bool());
            case "securityContext" -> s.setSecurityContext(viaProperties(new PodSecurityContext()));
            default -> other(s, f);
          }
        } catch (ToMapper e) {
          other(s, f);
        }
      }
      return s;
    }

    private Container container() throws IOException {
      Container c = new Container();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "name" -> c.setName(str());
            case "image" -> c.setImage(str());
            case "imagePullPolicy" -> c.setImagePullPolicy(str());
            case "terminationMessagePath" -> c.setTerminationMessagePath(str());
            case "terminationMessagePolicy" -> c.setTerminationMessagePolicy(str());
            case "resources" -> c.setResources(resources());
            case "ports" -> c.setPorts(list(Run::port));
            case "securityContext" -> c.setSecurityContext(viaProperties(new SecurityContext()));
            default -> {
              if (UnreadFields.CONTAINER.contains(f)) {
                p.skipChildren();
              } else {
                other(c, f);
              }
            }
          }
        } catch (ToMapper e) {
          other(c, f);
        }
      }
      return c;
    }

    private ResourceRequirements resources() throws IOException {
      expect(JsonToken.START_OBJECT);
      ResourceRequirements r = new ResourceRequirements();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "requests" -> r.setRequests(quantities());
            case "limits" -> r.setLimits(quantities());
            default -> other(r, f);
          }
        } catch (ToMapper e) {
          other(r, f);
        }
      }
      return r;
    }

    private ContainerPort port() throws IOException {
      ContainerPort port = new ContainerPort();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "containerPort" -> port.setContainerPort(intValue());
            case "hostPort" -> port.setHostPort(intValue());
            case "protocol" -> port.setProtocol(str());
            case "name" -> port.setName(str());
            case "hostIP" -> port.setHostIP(str());
            default -> other(port, f);
          }
        } catch (ToMapper e) {
          other(port, f);
        }
      }
      return port;
    }

    private Toleration toleration() throws IOException {
      Toleration t = new Toleration();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "key" -> t.setKey(str());
            case "operator" -> t.setOperator(str());
            case "value" -> t.setValue(str());
            case "effect" -> t.setEffect(str());
            case "tolerationSeconds" -> t.setTolerationSeconds(longValue());
            default -> other(t, f);
          }
        } catch (ToMapper e) {
          other(t, f);
        }
      }
      return t;
    }

    private PodStatus status() throws IOException {
      expect(JsonToken.START_OBJECT);
      PodStatus s = new PodStatus();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "phase" -> s.setPhase(str());
            case "qosClass" -> s.setQosClass(str());
            case "nominatedNodeName" -> s.setNominatedNodeName(str());
            case "hostIP" -> s.setHostIP(str());
            case "podIP" -> s.setPodIP(str());
            case "startTime" -> s.setStartTime(str());
            case "reason" -> s.setReason(str());
            case "message" -> s.setMessage(str());
            case "conditions" -> s.setConditions(list(Run::condition));
            case "containerStatuses" -> s.setContainerStatuses(list(Run::containerStatus));
            case "initContainerStatuses" -> s.setInitContainerStatuses(list(Run::containerStatus));
            default -> {
              if (UnreadFields.POD_STATUS.contains(f)) {
                p.skipChildren();
              } else {
                other(s, f);
              }
            }
          }
        } catch (ToMapper e) {
          other(s, f);
        }
      }
      return s;
    }

    /** A container's status: its name and resources; what else it says is skipped. */
    private ContainerStatus containerStatus() throws IOException {
      ContainerStatus c = new ContainerStatus();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "name" -> c.setName(str());
            case "resources" -> c.setResources(resources());
            case "allocatedResources" -> c.setAllocatedResources(quantities());
            default -> {
              if (UnreadFields.CONTAINER_STATUS.contains(f)) {
                p.skipChildren();
              } else {
                other(c, f);
              }
            }
          }
        } catch (ToMapper e) {
          other(c, f);
        }
      }
      return c;
    }

    private PodCondition condition() throws IOException {
      PodCondition c = new PodCondition();
      for (String f = next(); f != null; f = next()) {
        try {
          switch (f) {
            case "type" -> c.setType(str());
            case "status" -> c.setStatus(str());
            case "lastProbeTime" -> c.setLastProbeTime(str());
            case "lastTransitionTime" -> c.setLastTransitionTime(str());
            case "reason" -> c.setReason(str());
            case "message" -> c.setMessage(str());
            default -> other(c, f);
          }
        } catch (ToMapper e) {
          other(c, f);
        }
      }
      return c;
    }
  }
}

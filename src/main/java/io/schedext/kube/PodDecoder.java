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
import io.fabric8.kubernetes.api.model.EnvVar;
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
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decodes a {@link Pod} from JSON into fabric8's model field by field, to the very object the
 * mapper's own deserializers build. Pods are the objects the extender decodes most (two watch
 * events and a filter call per scheduled pod), and Jackson's general bean deserializer spends most
 * of its time on what generality costs: a reflective setter call through a shared call site per
 * field and a property lookup per name, none of which the optimising compiler can inline.
 *
 * <p>The fields pods carry most (metadata, containers with their resources and ports, tolerations,
 * the status' phase and conditions, and every plain value of the spec) are read here; security
 * contexts are made empty and their fields set one by one through the mapper's properties, as its
 * bean deserializer does. A field it does not read itself, and any value of an unexpected form (a
 * number as a string, a {@code null} the mapper would not simply set), is handed to the mapper's
 * own property deserializer for that field, which sets it exactly as a whole decode would (the
 * mapper's coercions and fabric8's handling of mismatched values included); the fields {@link
 * UnreadFields} skips are skipped. Where even that cannot reproduce the mapper (a field the model
 * does not know, whose value the mapper would keep as an additional property; a map or list with an
 * element of another form) it throws {@link Unsupported}, and the caller decodes the pod with the
 * mapper instead. Any other exception is the parser's or the mapper's own. Thread-safe.
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

  /** One pod's decoding: the parser and, once a field needs the mapper, a context. */
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

    private boolean is(JsonToken t) {
      return p.currentToken() == t;
    }

    private boolean isString() {
      return p.currentToken() == JsonToken.VALUE_STRING;
    }

    /** A string, or a null the mapper sets as null. */
    private boolean isText() {
      JsonToken t = p.currentToken();
      return t == JsonToken.VALUE_STRING || (t == JsonToken.VALUE_NULL && nullsSet);
    }

    /** The string or null {@link #isText} accepted. */
    private String text() throws IOException {
      return p.currentToken() == JsonToken.VALUE_NULL ? null : p.getText();
    }

    /**
     * Sets every field of {@code bean} (a model object whose START_OBJECT is the current token) as
     * the mapper's bean deserializer does: created empty, then each property in turn.
     */
    private <T> T viaProperties(T bean) throws IOException {
      for (String f = next(); f != null; f = next()) {
        other(bean, f);
      }
      return bean;
    }

    private boolean isInt() throws IOException {
      return p.currentToken() == JsonToken.VALUE_NUMBER_INT
          && p.getNumberType() == JsonParser.NumberType.INT;
    }

    private boolean isLong() throws IOException {
      return p.currentToken() == JsonToken.VALUE_NUMBER_INT
          && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
    }

    private boolean isBoolean() {
      return p.currentToken() == JsonToken.VALUE_TRUE || p.currentToken() == JsonToken.VALUE_FALSE;
    }

    private Boolean bool() {
      return p.currentToken() == JsonToken.VALUE_TRUE ? Boolean.TRUE : Boolean.FALSE;
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

    /** A map of strings, the current token its START_OBJECT. */
    private Map<String, String> strings() throws IOException {
      Map<String, String> m = new LinkedHashMap<>();
      for (String k = next(); k != null; k = next()) {
        if (!isString()) {
          throw new Unsupported("a map value " + p.currentToken());
        }
        m.put(k, p.getText());
      }
      return m;
    }

    /** A map of quantities written as strings, the current token its START_OBJECT. */
    private Map<String, Quantity> quantities() throws IOException {
      Map<String, Quantity> m = new LinkedHashMap<>();
      for (String k = next(); k != null; k = next()) {
        if (!isString()) {
          throw new Unsupported("a map value " + p.currentToken());
        }
        m.put(k, new Quantity(p.getText()));
      }
      return m;
    }

    /** A list of strings, the current token its START_ARRAY. */
    private List<String> stringList() throws IOException {
      List<String> l = new ArrayList<>();
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        if (t != JsonToken.VALUE_STRING) {
          throw new Unsupported("a list element " + t);
        }
        l.add(p.getText());
      }
      return l;
    }

    /** Checks that the next token starts an element object; false at the array's end. */
    private boolean nextElement() throws IOException {
      JsonToken t = p.nextToken();
      if (t == JsonToken.END_ARRAY) {
        return false;
      }
      if (t != JsonToken.START_OBJECT) {
        throw new Unsupported("a list element " + t);
      }
      return true;
    }

    void pod(Pod pod) throws IOException {
      for (String f = next(); f != null; f = next()) {
        switch (f) {
          case "metadata" -> {
            if (is(JsonToken.START_OBJECT)) {
              pod.setMetadata(meta());
            } else {
              other(pod, f);
            }
          }
          case "spec" -> {
            if (is(JsonToken.START_OBJECT)) {
              pod.setSpec(spec());
            } else {
              other(pod, f);
            }
          }
          case "status" -> {
            if (is(JsonToken.START_OBJECT)) {
              pod.setStatus(status());
            } else {
              other(pod, f);
            }
          }
          case "apiVersion" -> {
            if (isText()) {
              pod.setApiVersion(text());
            } else {
              other(pod, f);
            }
          }
          case "kind" -> {
            if (isText()) {
              pod.setKind(text());
            } else {
              other(pod, f);
            }
          }
          default -> other(pod, f);
        }
      }
    }

    private ObjectMeta meta() throws IOException {
      ObjectMeta m = new ObjectMeta();
      for (String f = next(); f != null; f = next()) {
        switch (f) {
          case "name" -> {
            if (isText()) {
              m.setName(text());
            } else {
              other(m, f);
            }
          }
          case "namespace" -> {
            if (isText()) {
              m.setNamespace(text());
            } else {
              other(m, f);
            }
          }
          case "uid" -> {
            if (isText()) {
              m.setUid(text());
            } else {
              other(m, f);
            }
          }
          case "resourceVersion" -> {
            if (isText()) {
              m.setResourceVersion(text());
            } else {
              other(m, f);
            }
          }
          case "generateName" -> {
            if (isText()) {
              m.setGenerateName(text());
            } else {
              other(m, f);
            }
          }
          case "creationTimestamp" -> {
            if (isText()) {
              m.setCreationTimestamp(text());
            } else {
              other(m, f);
            }
          }
          case "deletionTimestamp" -> {
            if (isText()) {
              m.setDeletionTimestamp(text());
            } else {
              other(m, f);
            }
          }
          case "generation" -> {
            if (isLong()) {
              m.setGeneration(p.getLongValue());
            } else {
              other(m, f);
            }
          }
          case "deletionGracePeriodSeconds" -> {
            if (isLong()) {
              m.setDeletionGracePeriodSeconds(p.getLongValue());
            } else {
              other(m, f);
            }
          }
          case "labels" -> {
            if (is(JsonToken.START_OBJECT)) {
              m.setLabels(strings());
            } else {
              other(m, f);
            }
          }
          case "annotations" -> {
            if (is(JsonToken.START_OBJECT)) {
              m.setAnnotations(strings());
            } else {
              other(m, f);
            }
          }
          case "finalizers" -> {
            if (is(JsonToken.START_ARRAY)) {
              m.setFinalizers(stringList());
            } else {
              other(m, f);
            }
          }
          case "ownerReferences" -> {
            if (is(JsonToken.START_ARRAY)) {
              m.setOwnerReferences(owners());
            } else {
              other(m, f);
            }
          }
          case UnreadFields.META -> p.skipChildren();
          default -> other(m, f);
        }
      }
      return m;
    }

    private List<OwnerReference> owners() throws IOException {
      List<OwnerReference> l = new ArrayList<>();
      while (nextElement()) {
        OwnerReference o = new OwnerReference();
        for (String f = next(); f != null; f = next()) {
          switch (f) {
            case "apiVersion" -> {
              if (isText()) {
                o.setApiVersion(text());
              } else {
                other(o, f);
              }
            }
            case "kind" -> {
              if (isText()) {
                o.setKind(text());
              } else {
                other(o, f);
              }
            }
            case "name" -> {
              if (isText()) {
                o.setName(text());
              } else {
                other(o, f);
              }
            }
            case "uid" -> {
              if (isText()) {
                o.setUid(text());
              } else {
                other(o, f);
              }
            }
            case "controller" -> {
              if (isBoolean()) {
                o.setController(bool());
              } else {
                other(o, f);
              }
            }
            case "blockOwnerDeletion" -> {
              if (isBoolean()) {
                o.setBlockOwnerDeletion(bool());
              } else {
                other(o, f);
              }
            }
            default -> other(o, f);
          }
        }
        l.add(o);
      }
      return l;
    }

    private PodSpec spec() throws IOException {
      PodSpec s = new PodSpec();
      for (String f = next(); f != null; f = next()) {
        switch (f) {
          case "containers" -> {
            if (is(JsonToken.START_ARRAY)) {
              s.setContainers(containers());
            } else {
              other(s, f);
            }
          }
          case "initContainers" -> {
            if (is(JsonToken.START_ARRAY)) {
              s.setInitContainers(containers());
            } else {
              other(s, f);
            }
          }
          case "tolerations" -> {
            if (is(JsonToken.START_ARRAY)) {
              s.setTolerations(tolerations());
            } else {
              other(s, f);
            }
          }
          case "nodeSelector" -> {
            if (is(JsonToken.START_OBJECT)) {
              s.setNodeSelector(strings());
            } else {
              other(s, f);
            }
          }
          case "overhead" -> {
            if (is(JsonToken.START_OBJECT)) {
              s.setOverhead(quantities());
            } else {
              other(s, f);
            }
          }
          case "restartPolicy" -> {
            if (isText()) {
              s.setRestartPolicy(text());
            } else {
              other(s, f);
            }
          }
          case "dnsPolicy" -> {
            if (isText()) {
              s.setDnsPolicy(text());
            } else {
              other(s, f);
            }
          }
          case "schedulerName" -> {
            if (isText()) {
              s.setSchedulerName(text());
            } else {
              other(s, f);
            }
          }
          case "serviceAccountName" -> {
            if (isText()) {
              s.setServiceAccountName(text());
            } else {
              other(s, f);
            }
          }
          case "serviceAccount" -> {
            if (isText()) {
              s.setServiceAccount(text());
            } else {
              other(s, f);
            }
          }
          case "nodeName" -> {
            if (isText()) {
              s.setNodeName(text());
            } else {
              other(s, f);
            }
          }
          case "priorityClassName" -> {
            if (isText()) {
              s.setPriorityClassName(text());
            } else {
              other(s, f);
            }
          }
          case "preemptionPolicy" -> {
            if (isText()) {
              s.setPreemptionPolicy(text());
            } else {
              other(s, f);
            }
          }
          case "priority" -> {
            if (isInt()) {
              s.setPriority(p.getIntValue());
            } else {
              other(s, f);
            }
          }
          case "terminationGracePeriodSeconds" -> {
            if (isLong()) {
              s.setTerminationGracePeriodSeconds(p.getLongValue());
            } else {
              other(s, f);
            }
          }
          case "enableServiceLinks" -> {
            if (isBoolean()) {
              s.setEnableServiceLinks(bool());
            } else {
              other(s, f);
            }
          }
          case "securityContext" -> {
            if (is(JsonToken.START_OBJECT)) {
              s.setSecurityContext(viaProperties(new PodSecurityContext()));
            } else {
              other(s, f);
            }
          }
          case "hostNetwork" -> {
            if (isBoolean()) {
              s.setHostNetwork(bool());
            } else {
              other(s, f);
            }
          }
          default -> other(s, f);
        }
      }
      return s;
    }

    private List<Container> containers() throws IOException {
      List<Container> l = new ArrayList<>();
      while (nextElement()) {
        l.add(container());
      }
      return l;
    }

    private Container container() throws IOException {
      Container c = new Container();
      for (String f = next(); f != null; f = next()) {
        switch (f) {
          case "name" -> {
            if (isText()) {
              c.setName(text());
            } else {
              other(c, f);
            }
          }
          case "image" -> {
            if (isText()) {
              c.setImage(text());
            } else {
              other(c, f);
            }
          }
          case "imagePullPolicy" -> {
            if (isText()) {
              c.setImagePullPolicy(text());
            } else {
              other(c, f);
            }
          }
          case "terminationMessagePath" -> {
            if (isText()) {
              c.setTerminationMessagePath(text());
            } else {
              other(c, f);
            }
          }
          case "terminationMessagePolicy" -> {
            if (isText()) {
              c.setTerminationMessagePolicy(text());
            } else {
              other(c, f);
            }
          }
          case "resources" -> {
            if (is(JsonToken.START_OBJECT)) {
              c.setResources(resources());
            } else {
              other(c, f);
            }
          }
          case "ports" -> {
            if (is(JsonToken.START_ARRAY)) {
              c.setPorts(ports());
            } else {
              other(c, f);
            }
          }
          case "command" -> {
            if (is(JsonToken.START_ARRAY)) {
              c.setCommand(stringList());
            } else {
              other(c, f);
            }
          }
          case "args" -> {
            if (is(JsonToken.START_ARRAY)) {
              c.setArgs(stringList());
            } else {
              other(c, f);
            }
          }
          case "env" -> {
            if (is(JsonToken.START_ARRAY)) {
              c.setEnv(env());
            } else {
              other(c, f);
            }
          }
          case "securityContext" -> {
            if (is(JsonToken.START_OBJECT)) {
              c.setSecurityContext(viaProperties(new SecurityContext()));
            } else {
              other(c, f);
            }
          }
          case "volumeMounts" -> {
            if (is(JsonToken.START_ARRAY)) {
              c.setVolumeMounts(mounts());
            } else {
              other(c, f);
            }
          }
          default -> other(c, f);
        }
      }
      return c;
    }

    private ResourceRequirements resources() throws IOException {
      ResourceRequirements r = new ResourceRequirements();
      for (String f = next(); f != null; f = next()) {
        switch (f) {
          case "requests" -> {
            if (is(JsonToken.START_OBJECT)) {
              r.setRequests(quantities());
            } else {
              other(r, f);
            }
          }
          case "limits" -> {
            if (is(JsonToken.START_OBJECT)) {
              r.setLimits(quantities());
            } else {
              other(r, f);
            }
          }
          default -> other(r, f);
        }
      }
      return r;
    }

    private List<ContainerPort> ports() throws IOException {
      List<ContainerPort> l = new ArrayList<>();
      while (nextElement()) {
        ContainerPort port = new ContainerPort();
        for (String f = next(); f != null; f = next()) {
          switch (f) {
            case "containerPort" -> {
              if (isInt()) {
                port.setContainerPort(p.getIntValue());
              } else {
                other(port, f);
              }
            }
            case "hostPort" -> {
              if (isInt()) {
                port.setHostPort(p.getIntValue());
              } else {
                other(port, f);
              }
            }
            case "protocol" -> {
              if (isText()) {
                port.setProtocol(text());
              } else {
                other(port, f);
              }
            }
            case "name" -> {
              if (isText()) {
                port.setName(text());
              } else {
                other(port, f);
              }
            }
            case "hostIP" -> {
              if (isText()) {
                port.setHostIP(text());
              } else {
                other(port, f);
              }
            }
            default -> other(port, f);
          }
        }
        l.add(port);
      }
      return l;
    }

    private List<EnvVar> env() throws IOException {
      List<EnvVar> l = new ArrayList<>();
      while (nextElement()) {
        EnvVar e = new EnvVar();
        for (String f = next(); f != null; f = next()) {
          switch (f) {
            case "name" -> {
              if (isText()) {
                e.setName(text());
              } else {
                other(e, f);
              }
            }
            case "value" -> {
              if (isText()) {
                e.setValue(text());
              } else {
                other(e, f);
              }
            }
            default -> other(e, f);
          }
        }
        l.add(e);
      }
      return l;
    }

    private List<VolumeMount> mounts() throws IOException {
      List<VolumeMount> l = new ArrayList<>();
      while (nextElement()) {
        VolumeMount m = new VolumeMount();
        for (String f = next(); f != null; f = next()) {
          switch (f) {
            case "name" -> {
              if (isText()) {
                m.setName(text());
              } else {
                other(m, f);
              }
            }
            case "mountPath" -> {
              if (isText()) {
                m.setMountPath(text());
              } else {
                other(m, f);
              }
            }
            case "subPath" -> {
              if (isText()) {
                m.setSubPath(text());
              } else {
                other(m, f);
              }
            }
            case "readOnly" -> {
              if (isBoolean()) {
                m.setReadOnly(bool());
              } else {
                other(m, f);
              }
            }
            default -> other(m, f);
          }
        }
        l.add(m);
      }
      return l;
    }

    private List<Toleration> tolerations() throws IOException {
      List<Toleration> l = new ArrayList<>();
      while (nextElement()) {
        Toleration t = new Toleration();
        for (String f = next(); f != null; f = next()) {
          switch (f) {
            case "key" -> {
              if (isText()) {
                t.setKey(text());
              } else {
                other(t, f);
              }
            }
            case "operator" -> {
              if (isText()) {
                t.setOperator(text());
              } else {
                other(t, f);
              }
            }
            case "value" -> {
              if (isText()) {
                t.setValue(text());
              } else {
                other(t, f);
              }
            }
            case "effect" -> {
              if (isText()) {
                t.setEffect(text());
              } else {
                other(t, f);
              }
            }
            case "tolerationSeconds" -> {
              if (isLong()) {
                t.setTolerationSeconds(p.getLongValue());
              } else {
                other(t, f);
              }
            }
            default -> other(t, f);
          }
        }
        l.add(t);
      }
      return l;
    }

    private PodStatus status() throws IOException {
      PodStatus s = new PodStatus();
      for (String f = next(); f != null; f = next()) {
        switch (f) {
          case "phase" -> {
            if (isText()) {
              s.setPhase(text());
            } else {
              other(s, f);
            }
          }
          case "qosClass" -> {
            if (isText()) {
              s.setQosClass(text());
            } else {
              other(s, f);
            }
          }
          case "nominatedNodeName" -> {
            if (isText()) {
              s.setNominatedNodeName(text());
            } else {
              other(s, f);
            }
          }
          case "hostIP" -> {
            if (isText()) {
              s.setHostIP(text());
            } else {
              other(s, f);
            }
          }
          case "podIP" -> {
            if (isText()) {
              s.setPodIP(text());
            } else {
              other(s, f);
            }
          }
          case "startTime" -> {
            if (isText()) {
              s.setStartTime(text());
            } else {
              other(s, f);
            }
          }
          case "reason" -> {
            if (isText()) {
              s.setReason(text());
            } else {
              other(s, f);
            }
          }
          case "message" -> {
            if (isText()) {
              s.setMessage(text());
            } else {
              other(s, f);
            }
          }
          case "conditions" -> {
            if (is(JsonToken.START_ARRAY)) {
              s.setConditions(conditions());
            } else {
              other(s, f);
            }
          }
          default -> {
            if (UnreadFields.POD_STATUS.contains(f)) {
              p.skipChildren();
            } else {
              other(s, f);
            }
          }
        }
      }
      return s;
    }

    private List<PodCondition> conditions() throws IOException {
      List<PodCondition> l = new ArrayList<>();
      while (nextElement()) {
        PodCondition c = new PodCondition();
        for (String f = next(); f != null; f = next()) {
          switch (f) {
            case "type" -> {
              if (isText()) {
                c.setType(text());
              } else {
                other(c, f);
              }
            }
            case "status" -> {
              if (isText()) {
                c.setStatus(text());
              } else {
                other(c, f);
              }
            }
            case "lastProbeTime" -> {
              if (isText()) {
                c.setLastProbeTime(text());
              } else {
                other(c, f);
              }
            }
            case "lastTransitionTime" -> {
              if (isText()) {
                c.setLastTransitionTime(text());
              } else {
                other(c, f);
              }
            }
            case "reason" -> {
              if (isText()) {
                c.setReason(text());
              } else {
                other(c, f);
              }
            }
            case "message" -> {
              if (isText()) {
                c.setMessage(text());
              } else {
                other(c, f);
              }
            }
            default -> other(c, f);
          }
        }
        l.add(c);
      }
      return l;
    }
  }
}

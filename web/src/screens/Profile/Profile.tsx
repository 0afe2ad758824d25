/** SPEC §2/§5 Profile: back (history), avatar change with preview (image under 5 MB), read-only phone, name, country, save. */
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { COUNTRIES, LIMITS } from "@storefront/shared";
import { getProfile, updateProfile } from "../../api/profile";
import { ErrorAlert, Form, InputField, SelectField } from "../../components/Form";
import { BackButton, PageHeader, initialOf } from "../../components/Layout";
import { useToast } from "../../components/Toasts";
import { useUser } from "../../hooks/useAuth";
import { useFormat } from "../../hooks/useFormat";
import { ChangePassword } from "./ChangePassword";
import "./Profile.css";
import { PhoneProofNotice } from "../VerifyPhone/PhoneProofNotice";

export default function Profile() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const format = useFormat();
  const queryClient = useQueryClient();
  const profile = useQuery({ queryKey: ["profile", user.id], queryFn: () => getProfile(user.id) });
  const [displayName, setDisplayName] = useState("");
  const [country, setCountry] = useState("");
  const [avatar, setAvatar] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);
  /** Set at the first keystroke: the stored profile fills the form only until then, so a slow load never wipes what was typed. */
  const [edited, setEdited] = useState(false);

  useEffect(() => {
    if (!profile.data || edited) return;
    setDisplayName(profile.data.displayName ?? "");
    setCountry(profile.data.country ?? "");
  }, [profile.data, edited]);
  useEffect(() => {
    if (profile.isError) console.warn(t("profile.loadFailed"), profile.error);
  }, [profile.isError, profile.error, t]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const countryOptions = useMemo(() => {
    const names = new Intl.DisplayNames([format.language], { type: "region" });
    const countries = COUNTRIES.map((code) => ({ value: code as string, label: names.of(code) ?? code })).sort((a, b) =>
      a.label.localeCompare(b.label, format.language),
    );
    return [{ value: "", label: t("profile.chooseCountry") }, ...countries];
  }, [format.language, t]);

  function pick(file: File | undefined) {
    setError("");
    if (!file) return;
    if (!file.type.startsWith("image/")) return setError(t("profile.invalidImage"));
    if (file.size >= LIMITS.avatarBytes) return setError(t("profile.imageTooLarge"));
    setAvatar(file);
    setPreview(URL.createObjectURL(file));
  }

  async function save() {
    if (saving) return;
    setSaving(true);
    try {
      const updated = await updateProfile({ displayName: displayName.trim(), country, avatar });
      queryClient.setQueryData(["profile", user.id], updated);
      setAvatar(null);
      toast.success(t("profile.updated"));
    } catch {
      toast.error(t("profile.updateFailed"));
    } finally {
      setSaving(false);
    }
  }

  const shown = preview ?? profile.data?.avatar ?? null;
  return (
    <div className="profile-page">
      <PageHeader title={t("profile.title")} start={<BackButton history />} />
      <main id="main" className="profile-page__main">
        <Form className="card profile-card" onSubmit={save}>
          <div className="profile-card__avatar">
            <span className="avatar avatar--large">
              {shown ? <img src={shown} alt={t("profile.avatarAlt")} /> : initialOf(user.phone)}
            </span>
            <div>
              <label htmlFor="profile-avatar" className="btn btn--secondary">
                {t("profile.changeAvatar")}
              </label>
              <input
                id="profile-avatar"
                type="file"
                accept="image/*"
                className="visually-hidden"
                onChange={(e) => pick(e.target.files?.[0])}
              />
              <p className="field-hint">{t("profile.avatarHint")}</p>
            </div>
          </div>
          <ErrorAlert message={error} />
          <InputField
            id="profile-phone"
            label={t("profile.phone")}
            value={profile.data?.phone ?? user.phone}
            readOnly
            dir="ltr"
            aria-describedby="phone-hint"
          >
            <span id="phone-hint" className="field-hint">
              {t("profile.phoneReadOnly")}
            </span>
          </InputField>
          <PhoneProofNotice />
          <InputField
            id="profile-name"
            label={t("profile.displayName")}
            value={displayName}
            maxLength={LIMITS.displayNameChars}
            placeholder={t("profile.displayNamePlaceholder")}
            onChange={(name) => {
              setEdited(true);
              setDisplayName(name);
            }}
          />
          <SelectField
            id="profile-country"
            label={t("profile.country")}
            value={country}
            options={countryOptions}
            onChange={(code) => {
              setEdited(true);
              setCountry(code);
            }}
          />
          <button type="submit" className="btn btn--primary btn--block" disabled={saving}>
            {saving ? t("profile.saving") : t("profile.save")}
          </button>
        </Form>
        <ChangePassword />
      </main>
    </div>
  );
}

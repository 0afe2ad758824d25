/**
 * SPEC §2/§4/§5 Image AI: a 320 px sidebar (ImageSidebar: mode switch, agents, the 10 recent
 * images, the user), the form (ImageForm: prompt, upload with preview and strength in edit mode,
 * sizes, generate/reset) and the results (ImageResults: view and download as ai-image-{timestamp}.png).
 */
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LIMITS } from "@storefront/shared";
import { deleteImage, imageHistory } from "../../api/images";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { BackButton, DrawerOverlay, PageHeader, SidebarToggle } from "../../components/Layout";
import { useToast } from "../../components/Toasts";
import { useUser } from "../../hooks/useAuth";
import { useMediaQuery } from "../../hooks/useMediaQuery";
import { ImageForm } from "./ImageForm";
import { ImageResults } from "./ImageResults";
import { ImageSidebar } from "./ImageSidebar";
import { useImageGeneration } from "./useImageGeneration";
import "./ImageAI.css";

export default function ImageAI() {
  const { t } = useTranslation();
  const user = useUser();
  const toast = useToast();
  const queryClient = useQueryClient();
  const wide = useMediaQuery("(min-width: 901px)");
  const [sidebarOpen, setSidebarOpen] = useState(wide);
  const [deleteId, setDeleteId] = useState<string | null>(null);
  const image = useImageGeneration();
  useEffect(() => {
    setSidebarOpen(wide);
  }, [wide]);

  const history = useQuery({ queryKey: ["images", user.id], queryFn: () => imageHistory(user.id) });
  const recent = useMemo(() => (history.data ?? []).slice(0, LIMITS.recentImages), [history.data]);

  async function confirmDelete() {
    const id = deleteId;
    setDeleteId(null);
    if (!id) return;
    try {
      await deleteImage(id);
      void queryClient.invalidateQueries({ queryKey: ["images"] });
    } catch {
      toast.error(t("image.deleteFailed"));
    }
  }

  return (
    <div className="image-ai">
      <ImageSidebar
        image={image}
        recent={recent}
        onDelete={setDeleteId}
        open={sidebarOpen}
        wide={wide}
        onClose={() => setSidebarOpen(false)}
      />
      {sidebarOpen && !wide && <DrawerOverlay onClose={() => setSidebarOpen(false)} />}
      <div className="image-ai__main">
        <PageHeader
          title={t("image.title")}
          start={
            <>
              <SidebarToggle open={sidebarOpen} onToggle={() => setSidebarOpen((o) => !o)} label={t("image.toggleSidebar")} />
              <BackButton />
            </>
          }
        />
        <main id="main" className="image-ai__content">
          <ImageForm image={image} />
          <ImageResults results={image.results} />
        </main>
      </div>
      <ConfirmDialog
        open={deleteId !== null}
        danger
        title={t("image.deleteTitle")}
        message={t("image.deleteMessage")}
        confirmLabel={t("common.delete")}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleteId(null)}
      />
    </div>
  );
}
